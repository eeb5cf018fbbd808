import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_LINK_COPIED_MS, USERNAME_SAVED_MS } from '../src/lib/constants';
import { ada, fakeApi, json, loggedOut, requestedUrls, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

function settingsApi(extra: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/friendship/pending': json(200, { requests: [] }),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/user/export': json(200, { export: null }),
    ...extra,
  });
}

async function usernameField() {
  return screen.findByRole('textbox', { name: 'Username' });
}

async function saveUsername(value: string) {
  const field = await usernameField();
  await userEvent.clear(field);
  if (value !== '') await userEvent.type(field, value);
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  return field;
}

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('/settings for visitors', () => {
  it('asks them to log in', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    renderApp('/settings');
    expect(await screen.findByText('Please log in to view your settings.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Username' })).not.toBeInTheDocument();
  });
});

describe('/settings username', () => {
  it('starts from the current username, limited to 40 characters', async () => {
    settingsApi();
    renderApp('/settings');
    const field = await usernameField();
    expect(field).toHaveValue('ada');
    expect(field).toHaveAttribute('maxLength', '40');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(document.title).toBe('Settings - Earshot');
  });

  it('saves the trimmed username, says "Saved" for 2 s and refreshes the current user', async () => {
    const fetchMock = settingsApi({
      'POST /api/user/username': json(200, { username: 'countess' }),
    });
    renderApp('/settings');
    const field = await usernameField();
    await userEvent.clear(field);
    await userEvent.type(field, '  countess  ');

    vi.useFakeTimers();
    fireEvent.submit(field);
    await act(async () => undefined);

    const post = fetchMock.mock.calls.find(([input]) => String(input) === '/api/user/username');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ username: 'countess' });
    expect(field).toHaveValue('countess');
    expect(screen.getByText('Saved')).toHaveAttribute('role', 'status');

    act(() => vi.advanceTimersByTime(USERNAME_SAVED_MS - 1));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();

    vi.useRealTimers();
    await waitFor(() =>
      expect(requestedUrls(fetchMock).filter((url) => url === '/api/user/me')).toHaveLength(2),
    );
  });

  it.each([
    [409, 'That username is taken.'],
    [400, 'Username cannot be empty.'],
    [500, "Couldn't save username."],
    [422, "Couldn't save username."],
  ])('shows the answer %i as "%s"', async (status, message) => {
    settingsApi({ 'POST /api/user/username': json(status, { detail: 'server says no' }) });
    renderApp('/settings');

    const field = await saveUsername('grace');

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it('says "Username cannot be empty." for blanks without calling the server', async () => {
    const fetchMock = settingsApi();
    renderApp('/settings');

    await saveUsername('   ');

    expect(await screen.findByRole('alert')).toHaveTextContent('Username cannot be empty.');
    expect(requestedUrls(fetchMock)).not.toContain('/api/user/username');
  });

  it.each(['Bad Name!!', 'ada/grace', 'zoë'])(
    'says which characters a username may have for "%s", without calling the server',
    async (typed) => {
      const fetchMock = settingsApi();
      renderApp('/settings');

      const field = await saveUsername(typed);

      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Username may only contain letters, digits, ".", "-" and "_".',
      );
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(requestedUrls(fetchMock)).not.toContain('/api/user/username');
    },
  );
});

describe('/settings public profile link', () => {
  it('copies the link, says "Copied" for 1.5 s, and links to the profile', async () => {
    settingsApi();
    renderApp('/settings');
    const url = `${window.location.origin}/user/ada`;
    expect(await screen.findByRole('textbox', { name: 'Public profile link' })).toHaveValue(url);
    expect(screen.getByRole('link', { name: 'View your public profile' })).toHaveAttribute(
      'href',
      '/user/ada',
    );
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });

    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await act(async () => undefined);

    expect(writeText).toHaveBeenCalledWith(url);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(SETTINGS_LINK_COPIED_MS - 1));
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });
});

describe('/settings Spotify account and import', () => {
  function accountCard() {
    const card = screen.getByRole('heading', { name: 'Spotify account' }).closest('section');
    if (!card) throw new Error('no Spotify account card');
    return card;
  }

  it('shows the e-mail and "Checking…" until the status arrives, then "Active"', async () => {
    let answer: (response: Response) => void = () => undefined;
    settingsApi({
      'GET /api/spotify/stats': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderApp('/settings');

    await screen.findByRole('heading', { name: 'Spotify account' });
    expect(within(accountCard()).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(accountCard()).getByText('Checking…')).toBeInTheDocument();

    answer(json(200, { active: true })() as Response);
    expect(await within(accountCard()).findByText('Active')).toBeInTheDocument();
  });

  it('says the e-mail is hidden by Spotify when there is none', async () => {
    settingsApi({ 'GET /api/user/me': json(200, { ...ada, email: null }) });
    renderApp('/settings');
    await screen.findByRole('heading', { name: 'Spotify account' });
    expect(within(accountCard()).getByText(/Hidden by Spotify/)).toBeInTheDocument();
    expect(accountCard()).not.toHaveTextContent('null');
  });

  it('offers to connect Spotify through the authorize flow when inactive', async () => {
    const fetchMock = settingsApi({
      'GET /api/spotify/stats': json(200, { active: false }),
      'GET /api/spotify/authorize': json(200, { authorization_url: 'https://accounts.example/a' }),
    });
    renderApp('/settings');

    await userEvent.click(await screen.findByRole('button', { name: 'Connect Spotify' }));

    expect(requestedUrls(fetchMock)).toContain('/api/spotify/authorize?next=%2Fsettings');
  });

  it('links to the extended-history import', async () => {
    settingsApi();
    renderApp('/settings');
    expect(await screen.findByRole('link', { name: 'Import extended history' })).toHaveAttribute(
      'href',
      '/spotify/import',
    );
  });
});
