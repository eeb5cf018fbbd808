import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ada, fakeApi, json, loggedOut, requestedUrls } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

describe('/error page', () => {
  it.each([
    ['spotify', 'Spotify Connection Failed', 'We encountered an issue while connecting to Spotify'],
    ['api', 'Something went wrong', 'The server request failed. Please try again later'],
    [
      'network',
      'Network Error',
      'Unable to connect to the server. Please check your internet connection',
    ],
    ['default', 'Something Went Wrong', 'An unexpected error occurred'],
    ['anything-else', 'Something Went Wrong', 'An unexpected error occurred'],
  ])('type %s reads "%s" / "%s"', async (type, title, message) => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    renderApp(`/error?type=${type}`);

    const card = (await screen.findByRole('heading', { level: 1, name: title })).parentElement;
    if (!card) throw new Error('the title has no card');
    expect(within(card).getByText(message)).toBeInTheDocument();
    expect(within(card).getAllByRole('listitem').length).toBeGreaterThan(0);
    expect(within(card).getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(document.title).toBe(`${title} - Earshot`);
    expect(document.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  });

  it('gives each type its own help list', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    const helpLists = new Set<string>();
    for (const type of ['spotify', 'api', 'network', 'default']) {
      const view = renderApp(`/error?type=${type}`);
      const list = await screen.findByRole('list');
      helpLists.add(list.textContent ?? '');
      view.unmount();
    }
    expect(helpLists.size).toBe(4);
  });

  it('lets the message parameter override the text, not the title', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    renderApp('/error?type=network&message=Spotify%20took%20too%20long');

    expect(await screen.findByRole('heading', { name: 'Network Error' })).toBeInTheDocument();
    expect(screen.getByText('Spotify took too long')).toBeInTheDocument();
    expect(
      screen.queryByText('Unable to connect to the server. Please check your internet connection'),
    ).not.toBeInTheDocument();
  });

  it('returns home', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    const { router } = renderApp('/error?type=api');
    await userEvent.click(await screen.findByRole('link', { name: 'Return to Home' }));
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('404 page', () => {
  it('answers any unknown path inside the shell', async () => {
    fakeApi({ 'GET /api/user/me': json(200, ada) });
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(
      await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Page Not Found - Earshot');
  });
});

describe('/login', () => {
  it('connects with Spotify and returns to next afterwards', async () => {
    const fetchMock = fakeApi({
      'GET /api/user/me': loggedOut,
      'GET /api/spotify/authorize': json(200, { authorization_url: 'https://accounts.example/a' }),
    });
    renderApp('/login?next=%2Flikes%2Fme%3Fq%3Dbowie');

    expect(await screen.findByRole('heading', { name: 'Log in to Earshot' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Connect with Spotify' }));

    expect(requestedUrls(fetchMock)).toContain(
      '/api/spotify/authorize?next=%2Flikes%2Fme%3Fq%3Dbowie',
    );
  });

  it('ignores a next that leaves the site', async () => {
    const fetchMock = fakeApi({
      'GET /api/user/me': loggedOut,
      'GET /api/spotify/authorize': json(200, { authorization_url: 'https://accounts.example/a' }),
    });
    renderApp('/login?next=%2F%2Fevil.example%2Fphish');

    await userEvent.click(await screen.findByRole('button', { name: 'Connect with Spotify' }));

    expect(requestedUrls(fetchMock)).toContain('/api/spotify/authorize?next=%2F');
  });

  it('shows the missing-URL error on the api error page', async () => {
    fakeApi({
      'GET /api/user/me': loggedOut,
      'GET /api/spotify/authorize': json(200, { authorization_url: '' }),
    });
    renderApp('/login');

    await userEvent.click(await screen.findByRole('button', { name: 'Connect with Spotify' }));

    expect(
      await screen.findByText('No authorization URL received from server'),
    ).toBeInTheDocument();
  });

  it('sends a logged-in user straight to next', async () => {
    fakeApi({ 'GET /api/user/me': json(200, ada) });
    const { router } = renderApp('/login?next=%2Ffriends');

    expect(await screen.findByRole('heading', { level: 1, name: 'Friends' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/friends');
  });
});
