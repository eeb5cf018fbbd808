import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { loadPage } from '../src/lib/browserLocation';
import { fakeApi, json, loggedOut, requestedUrls } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

describe('landing page (visitors at /)', () => {
  it('offers to connect, lists the features and carries the default metadata', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut, 'GET /api/status': json(200, { version: '1.4.0' }) });
    renderApp('/');

    expect(await screen.findByRole('button', { name: 'Connect with Spotify' })).toBeEnabled();
    for (const feature of [
      'Recent plays',
      'Likes',
      'Discovery',
      'Full-history import',
      'Public profiles',
      'Playback',
    ]) {
      expect(screen.getByRole('heading', { name: feature })).toBeInTheDocument();
    }
    // No demo video unless VITE_DEMO_VIDEO_URL is set at build time.
    expect(document.querySelector('video')).toBeNull();
    // A visitor's 401 on the current user does not send anyone to /login.
    expect(loadPage).not.toHaveBeenCalled();

    expect(document.title).toBe('Earshot - Hear what your friends are playing');
    expect(document.querySelector('link[rel="canonical"]')).toHaveAttribute(
      'href',
      'http://localhost:3000/',
    );
    expect(document.querySelector('meta[property="og:image"]')).toHaveAttribute(
      'content',
      'http://localhost:3000/social-card.png',
    );
    expect(document.querySelector('meta[name="robots"]')).toBeNull();

    expect(await screen.findByText('Backend 1.4.0')).toBeInTheDocument();
    expect(screen.getByText('Connected')).toBeInTheDocument();
  });

  it('shows the demo video when its address is configured', async () => {
    vi.stubEnv('VITE_DEMO_VIDEO_URL', 'https://media.example.com/earshot-demo.mp4');
    try {
      fakeApi({ 'GET /api/user/me': loggedOut });
      renderApp('/');
      await screen.findByRole('button', { name: 'Connect with Spotify' });
      expect(document.querySelector('video')).toHaveAttribute(
        'src',
        'https://media.example.com/earshot-demo.mp4',
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('says the backend is down when it cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    renderApp('/');

    // The current user is retried once before the page gives up.
    expect(
      await screen.findByText('Earshot is having some issue', {}, { timeout: 4_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('We will be back soon')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect with Spotify' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Full-history import' })).toBeInTheDocument();
  });

  it('sends the browser to the authorization URL on connect', async () => {
    const fetchMock = fakeApi({
      'GET /api/user/me': loggedOut,
      'GET /api/spotify/authorize': json(200, {
        authorization_url: 'https://accounts.spotify.com/authorize?client_id=earshot',
      }),
    });
    renderApp('/');

    await userEvent.click(await screen.findByRole('button', { name: 'Connect with Spotify' }));

    await waitFor(() =>
      expect(loadPage).toHaveBeenCalledWith(
        'https://accounts.spotify.com/authorize?client_id=earshot',
      ),
    );
    expect(requestedUrls(fetchMock)).toContain('/api/spotify/authorize?next=%2F');
  });

  it('goes to the api error page when no authorization URL arrives', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut, 'GET /api/spotify/authorize': json(200, {}) });
    const { router } = renderApp('/');

    await userEvent.click(await screen.findByRole('button', { name: 'Connect with Spotify' }));

    expect(
      await screen.findByText('No authorization URL received from server'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/error');
    expect(new URLSearchParams(router.state.location.search).get('type')).toBe('api');
    expect(loadPage).not.toHaveBeenCalled();
  });
});
