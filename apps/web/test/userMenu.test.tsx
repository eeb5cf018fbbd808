import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPage } from '../src/lib/browserLocation';
import { SIGNED_IN_COOKIE } from '@earshot/contract/session';
import { ada, fakeApi, json, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

async function openUserMenu() {
  await userEvent.click(
    await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' }),
  );
  return screen.findByRole('menu');
}

describe('user menu', () => {
  beforeEach(() => {
    fakeApi({
      'GET /api/user/me': json(200, ada),
      'GET /api/spotify/stats': json(200, { active: true }),
    });
  });

  it("shows the user's name and e-mail and the listed items with their targets", async () => {
    renderApp('/');
    const menu = await openUserMenu();

    expect(within(menu).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument();
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Your Stats Profile',
      'Friends',
      'Playlists',
      'Settings',
      'Ignored Items',
      'Logout',
    ]);
    expect(items.slice(0, 5).map((item) => item.getAttribute('href'))).toEqual([
      '/user/ada',
      '/friends',
      '/playlists',
      '/settings',
      '/ignored',
    ]);
  });

  it('goes to the chosen page', async () => {
    const { router } = renderApp('/');
    const menu = await openUserMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Your Stats Profile' }));
    expect(router.state.location.pathname).toBe('/user/ada');
  });

  it('shows no e-mail line when Spotify hides the e-mail', async () => {
    fakeApi({
      'GET /api/user/me': json(200, { ...ada, email: null }),
      'GET /api/spotify/stats': json(200, { active: true }),
    });
    renderApp('/');
    const menu = await openUserMenu();

    expect(within(menu).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(menu).not.toHaveTextContent('null');
    expect(menu.querySelector('.menu__email')).toBeNull();
  });

  it('logs out: "Logging out..." while pending, then a full reload to /', async () => {
    let finishLogout: (response: Response) => void = () => undefined;
    const fetchMock = fakeApi({
      'GET /api/user/me': json(200, ada),
      'GET /api/spotify/stats': json(200, { active: true }),
      'POST /api/logout': () =>
        new Promise<Response>((resolve) => {
          finishLogout = resolve;
        }),
    });
    renderApp('/');
    const menu = await openUserMenu();

    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Logout' }));

    expect(await within(menu).findByRole('menuitem', { name: 'Logging out...' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/logout',
      expect.objectContaining({ method: 'POST', credentials: 'include' }),
    );
    expect(loadPage).not.toHaveBeenCalled();

    finishLogout(new Response(null, { status: 204 }));
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/'));
  });

  it('reports a failed logout as an error notification', async () => {
    fakeApi({
      'GET /api/user/me': json(200, ada),
      'GET /api/spotify/stats': json(200, { active: true }),
      'POST /api/logout': json(500, { detail: 'Session store unavailable' }),
    });
    renderApp('/');
    const menu = await openUserMenu();

    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Logout' }));

    // The menu is not modal: the page under it (here failing to load its feed) stays exposed.
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(
        'Failed to log out: Session store unavailable',
      ),
    );
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
    expect(loadPage).not.toHaveBeenCalled();
  });
});

describe('the header while the session is checked', () => {
  const pending: FakeAnswer = () => new Promise<Response>(() => {});
  const accountRoom = (container: HTMLElement) =>
    container.querySelectorAll('.app-header__actions .user-menu__trigger');

  it("keeps the bell's and the avatar's room for a browser the server marked signed in", async () => {
    fakeApi({ 'GET /api/user/me': pending, 'GET /api/status': pending });
    const { container } = renderApp('/discover');
    await screen.findByRole('button', { name: 'Search' });
    // Nothing moves when they come: the search button keeps its place.
    expect(accountRoom(container)).toHaveLength(1);
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('keeps no room for them in a browser never signed in', async () => {
    document.cookie = `${SIGNED_IN_COOKIE}=; path=/; max-age=0`;
    fakeApi({ 'GET /api/user/me': pending, 'GET /api/status': pending });
    const { container } = renderApp('/discover');
    await screen.findByRole('button', { name: 'Search' });
    expect(accountRoom(container)).toHaveLength(0);
  });
});
