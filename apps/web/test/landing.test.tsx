import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SIGNED_IN_COOKIE } from '@earshot/contract/session';
import { loadPage } from '../src/lib/browserLocation';
import { FakeIntersectionObserver } from './activityFixtures';
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

  it('treats a browser without the signed-in cookie as a visitor without asking the server', async () => {
    document.cookie = `${SIGNED_IN_COOKIE}=; path=/; max-age=0`;
    const api = fakeApi({ 'GET /api/status': json(200, { version: '1.4.0' }) });
    renderApp('/');

    expect(await screen.findByRole('button', { name: 'Connect with Spotify' })).toBeEnabled();
    expect(await screen.findByText('Backend 1.4.0')).toBeInTheDocument();
    expect(requestedUrls(api)).not.toContain('/api/user/me');
  });

  it('shows a visitor the landing page as the first paint, the session asked for once', async () => {
    document.cookie = `${SIGNED_IN_COOKIE}=; path=/; max-age=0`;
    const api = fakeApi({ 'GET /api/status': json(200, { version: '1.4.0' }) });
    const spinners: string[] = [];
    // Every spinner added, even one removed again before the observer's callback runs.
    const watcher = new MutationObserver((records) => {
      for (const node of records.flatMap((record) => [...record.addedNodes])) {
        if (!(node instanceof Element)) continue;
        const spinner = node.matches('.loading-state')
          ? node
          : node.querySelector('.loading-state');
        if (spinner) spinners.push(spinner.textContent ?? '');
      }
    });
    watcher.observe(document.body, { childList: true, subtree: true });
    renderApp('/');

    await screen.findByRole('button', { name: 'Connect with Spotify' });
    watcher.disconnect();
    expect(spinners).toEqual([]);
    // The footer's status and the session's one check that the server answers: not a third.
    // The footer asks from an effect, which can run after the button is found.
    await screen.findByText('Backend 1.4.0');
    expect(requestedUrls(api).filter((url) => url === '/api/status')).toHaveLength(2);
  });

  it('shows the demo video with controls and no autoplay, loading nothing until it nears the viewport', async () => {
    FakeIntersectionObserver.install();
    fakeApi({ 'GET /api/user/me': loggedOut });
    renderApp('/');
    await screen.findByRole('button', { name: 'Connect with Spotify' });

    const figure = screen.getByRole('figure', { name: /^A tour of Earshot/ });
    const video = figure.querySelector('video');
    expect(video).not.toBeNull();
    if (!video) return;
    expect(video).toHaveAttribute('controls');
    expect(video).toHaveAttribute('preload', 'none');
    expect(video).not.toHaveAttribute('autoplay');
    expect(video).toHaveAccessibleName(/^A tour of Earshot/);
    expect(
      [...video.querySelectorAll('source')].map((source) => [source.type, source.src]),
    ).toEqual([
      ['video/webm', 'http://localhost:3000/demo/earshot-demo.webm'],
      ['video/mp4', 'http://localhost:3000/demo/earshot-demo.mp4'],
    ]);
    // Far below the fold: neither the poster nor the captions are asked for yet.
    expect(video).not.toHaveAttribute('poster');
    expect(video.querySelector('track')).toBeNull();

    const [observer] = FakeIntersectionObserver.live();
    expect(observer?.observed.has(figure)).toBe(true);
    act(() => observer?.report(true));

    expect(video).toHaveAttribute('poster', '/demo/earshot-demo-poster.webp');
    const track = video.querySelector('track');
    expect(track).toHaveAttribute('kind', 'captions');
    expect(track).toHaveAttribute('src', '/demo/earshot-demo.en.vtt');
    expect(track).toHaveAttribute('srclang', 'en');
    expect(track).toHaveAttribute('default');
    // Once near, it stays loaded and stops watching.
    expect(FakeIntersectionObserver.live()).toHaveLength(0);
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

  it('says the backend is down to a visitor without the signed-in cookie too', async () => {
    document.cookie = `${SIGNED_IN_COOKIE}=; path=/; max-age=0`;
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    renderApp('/');

    expect(await screen.findByText('Earshot is having some issue')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect with Spotify' })).not.toBeInTheDocument();
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
