import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPage } from '../src/lib/browserLocation';
import { ACTIVITY_SEARCH_DEBOUNCE_MS, SPOTIFY_STATS_REFETCH_MS } from '../src/lib/constants';
import {
  activityItem,
  activityPage,
  adaAsActivityUser,
  FakeIntersectionObserver,
  grace,
  ignoredList,
  inSequence,
  requestsTo,
} from './activityFixtures';
import { ada, fakeApi, json, loggedOut, requestedUrls, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

function loggedIn(answers: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/ignore': ignoredList(),
    'GET /api/recent': activityPage([]),
    'GET /api/likes': activityPage([]),
    ...answers,
  });
}

/** Routes with loaders (the pages' data) finish navigating a microtask later. */
async function flushNavigation() {
  await act(async () => undefined);
}

function chip(name: string) {
  return within(screen.getByRole('navigation', { name: 'Whose activity' })).getByRole('link', {
    name,
  });
}

beforeEach(() => {
  FakeIntersectionObserver.install();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Recent Activity at / for logged-in users', () => {
  it('replaces the home panel: heading, title, search box, All chip and the first page', async () => {
    const fetchMock = loggedIn({ 'GET /api/recent': activityPage([activityItem()]) });
    renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Recent Activity' })).toBeInTheDocument();
    expect(document.title).toBe('Recent Activity - Earshot');
    expect(
      screen.getByPlaceholderText('Search title, album, artist, user or date'),
    ).toBeInTheDocument();
    expect(chip('All')).toHaveAttribute('aria-current', 'page');
    expect(chip('Mine')).toHaveAttribute('href', '/recent/me');
    expect(chip('Friends')).toHaveAttribute('href', '/recent/friends');
    expect(await screen.findAllByRole('listitem')).toHaveLength(1);
    expect(requestedUrls(fetchMock)).toContain('/api/recent?limit=30');
  });

  it('shows no banner while Spotify is connected', async () => {
    loggedIn();
    renderApp('/');
    await screen.findByText('No recent activity.');
    expect(screen.queryByRole('button', { name: 'Reconnect Spotify' })).not.toBeInTheDocument();
  });

  it('notices a connection revoked while the page stays open within a minute', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = loggedIn({
      'GET /api/spotify/stats': inSequence(
        json(200, { active: true }),
        json(200, { active: false }),
      ),
    });
    renderApp('/');
    await screen.findByText('No recent activity.');
    const asked = () => requestsTo(fetchMock, '/api/spotify/stats').length;
    // The banner's check need not be in before the feed's answer: it is asked beside it.
    await waitFor(() => expect(asked()).toBe(1));

    await act(() => vi.advanceTimersByTimeAsync(SPOTIFY_STATS_REFETCH_MS - 1_000));
    expect(asked()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(asked()).toBe(2);
    expect(
      await screen.findByText(
        'Spotify is disconnected. Reconnect to keep your plays and likes in sync.',
      ),
    ).toBeInTheDocument();
  });

  it('offers to reconnect in a banner when the Spotify connection is inactive', async () => {
    const fetchMock = loggedIn({
      'GET /api/spotify/stats': json(200, { active: false }),
      'GET /api/spotify/authorize': json(200, { authorization_url: 'https://accounts.example/a' }),
    });
    renderApp('/');

    expect(
      await screen.findByText(
        'Spotify is disconnected. Reconnect to keep your plays and likes in sync.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reconnect Spotify' }));

    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('https://accounts.example/a'));
    expect(requestedUrls(fetchMock)).toContain('/api/spotify/authorize?next=%2F');
  });

  it('sends an expired session to /login on a 401 from another call', async () => {
    loggedIn({ 'GET /api/spotify/stats': json(401, { detail: 'Session expired' }) });
    renderApp('/');
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/login?next=%2F'));
  });
});

describe('routes and scope chips', () => {
  it.each([
    ['/recent', 'Recent Activity', '/api/recent', 'All', {}],
    ['/recent/friends', 'Recent Activity', '/api/recent', 'Friends', { include_me: 'false' }],
    ['/recent/me', 'Recent Activity', '/api/recent', 'Mine', { user: 'user-ada' }],
    ['/likes', 'Likes', '/api/likes', 'All', {}],
    ['/likes/friends', 'Likes', '/api/likes', 'Friends', { include_me: 'false' }],
    ['/likes/me', 'Likes', '/api/likes', 'Mine', { user: 'user-ada' }],
  ])('%s shows %s, asks %s and marks %s', async (path, title, apiPath, active, params) => {
    const fetchMock = loggedIn();
    renderApp(path);

    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(document.title).toBe(`${title} - Earshot`);
    for (const name of ['All', 'Mine', 'Friends']) {
      if (name === active) expect(chip(name)).toHaveAttribute('aria-current', 'page');
      else expect(chip(name)).not.toHaveAttribute('aria-current');
    }
    await waitFor(() => expect(requestsTo(fetchMock, apiPath)).toHaveLength(1));
    const [request] = requestsTo(fetchMock, apiPath);
    expect(Object.fromEntries(request?.searchParams ?? [])).toEqual({ limit: '30', ...params });
  });

  it.each([
    ['/recent/user/grace', '/api/recent', '/recent'],
    ['/likes/user/grace', '/api/likes', '/likes'],
  ])('%s adds a disabled, active chip for the user', async (path, apiPath, base) => {
    const fetchMock = loggedIn();
    renderApp(path);

    const userChip = await screen.findByRole('link', { name: 'grace' });
    expect(userChip).toHaveAttribute('aria-disabled', 'true');
    expect(userChip).toHaveAttribute('aria-current', 'page');
    expect(userChip).not.toHaveAttribute('href');
    for (const name of ['All', 'Mine', 'Friends']) {
      expect(chip(name)).not.toHaveAttribute('aria-current');
    }
    expect(chip('All')).toHaveAttribute('href', base);
    await waitFor(() => expect(requestsTo(fetchMock, apiPath)).toHaveLength(1));
    expect(requestsTo(fetchMock, apiPath)[0]?.searchParams.get('user')).toBe('grace');
  });

  it.each([
    ['/recent/user/ada?q=abba', '/recent/me'],
    ['/likes/user/ada', '/likes/me'],
    ['/likes/user/ADA', '/likes/me'],
  ])("%s, the viewer's own name, is their Mine page", async (path, mine) => {
    loggedIn();
    const { router } = renderApp(path);

    await waitFor(() => expect(router.state.location.pathname).toBe(mine));
    expect(router.state.location.search).toBe(path.includes('?') ? '?q=abba' : '');
    expect(await screen.findByRole('link', { name: 'Mine' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.queryByRole('link', { name: 'ada' })).not.toBeInTheDocument();
  });

  it('switches the route with a chip and keeps the search', async () => {
    const fetchMock = loggedIn();
    const { router } = renderApp('/likes?q=abba');

    await userEvent.click(await screen.findByRole('link', { name: 'Friends' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/likes/friends'));
    expect(router.state.location.search).toBe('?q=abba');
    await waitFor(() => expect(chip('Friends')).toHaveAttribute('aria-current', 'page'));
    expect(screen.getByRole('searchbox')).toHaveValue('abba');
    await waitFor(() =>
      expect(requestedUrls(fetchMock)).toContain('/api/likes?limit=30&include_me=false&q=abba'),
    );
  });

  it('sends visitors to log in and come back', async () => {
    fakeApi({ 'GET /api/user/me': loggedOut });
    const { router } = renderApp('/likes/me?q=abba');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/likes/me?q=abba');
  });
});

describe('search box', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('puts the typed text into q only after a 500 ms pause', async () => {
    const fetchMock = loggedIn();
    const { router } = renderApp('/recent/friends');
    const box = await screen.findByRole('searchbox', {
      name: 'Search title, album, artist, user or date',
    });
    await screen.findByText('No recent activity.');

    vi.useFakeTimers();
    fireEvent.change(box, { target: { value: 'ab' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(box, { target: { value: 'abba ' } });
    act(() => vi.advanceTimersByTime(ACTIVITY_SEARCH_DEBOUNCE_MS - 1));
    expect(router.state.location.search).toBe('');

    act(() => vi.advanceTimersByTime(1));
    await flushNavigation();
    expect(router.state.location.search).toBe('?q=abba');
    expect(router.state.location.pathname).toBe('/recent/friends');
    expect(box).toHaveValue('abba ');
    vi.useRealTimers();

    await waitFor(() =>
      expect(requestedUrls(fetchMock)).toContain('/api/recent?limit=30&include_me=false&q=abba'),
    );
  });

  it('starts from q and removes q when emptied', async () => {
    loggedIn();
    const { router } = renderApp('/likes?q=queen');
    const box = await screen.findByRole('searchbox');
    expect(box).toHaveValue('queen');

    vi.useFakeTimers();
    fireEvent.change(box, { target: { value: '' } });
    act(() => vi.advanceTimersByTime(ACTIVITY_SEARCH_DEBOUNCE_MS));
    await flushNavigation();
    expect(router.state.location.search).toBe('');
  });

  it('follows a q changed from elsewhere', async () => {
    loggedIn();
    const { router } = renderApp('/recent?q=abba');
    const box = await screen.findByRole('searchbox');

    await act(() => router.navigate('/recent?q=queen'));

    expect(box).toHaveValue('queen');
  });
});

describe('infinite scroll', () => {
  it('asks for the next page with before when the end comes within 300 px', async () => {
    const firstPage = Array.from({ length: 30 }, () => activityItem());
    const secondPage = [activityItem({ title: 'The last song' })];
    const fetchMock = loggedIn({
      'GET /api/likes': inSequence(
        activityPage(firstPage, 'cursor-30'),
        activityPage(secondPage, null),
      ),
    });
    renderApp('/likes/friends');

    // The rows of the first paint, then the others (decision 0034).
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(30));
    // Watched once every row of the first answer is shown (decision 0034).
    // Read inside the wait: the deferred rows' render may still replace the observer after it.
    const observer = await waitFor(() => {
      const live = FakeIntersectionObserver.live();
      expect(live).toHaveLength(1);
      return live[0];
    });
    expect(observer?.options.rootMargin).toBe('300px 0px');
    expect(requestsTo(fetchMock, '/api/likes')).toHaveLength(1);

    act(() => observer?.report(true));

    expect(await screen.findByText('The last song')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(31);
    const requests = requestsTo(fetchMock, '/api/likes');
    expect(requests).toHaveLength(2);
    expect(Object.fromEntries(requests[1]?.searchParams ?? [])).toEqual({
      limit: '30',
      before: 'cursor-30',
      include_me: 'false',
    });
    // The last page had no next_before: nothing is watched any more.
    expect(FakeIntersectionObserver.live()).toHaveLength(0);
  });

  it('watches the end again only once the rows of the page that came are all shown', async () => {
    const page = (cursor: string | null) =>
      activityPage(
        Array.from({ length: 30 }, () => activityItem()),
        cursor,
      );
    loggedIn({ 'GET /api/likes': inSequence(page('cursor-30'), page('cursor-60'), page(null)) });
    // The rows in the page each time the end is watched: watching while the new rows still
    // wait for their background render would find the end in view and ask for page after page.
    const rowsWhenWatched: number[] = [];
    const observe = vi
      .spyOn(FakeIntersectionObserver.prototype, 'observe')
      .mockImplementation(function (this: FakeIntersectionObserver, element: Element) {
        rowsWhenWatched.push(screen.queryAllByRole('listitem').length);
        this.observed.add(element);
      });
    renderApp('/likes');
    await waitFor(() => expect(FakeIntersectionObserver.live()).toHaveLength(1));

    act(() => FakeIntersectionObserver.live()[0]?.report(true));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(60));
    await waitFor(() => expect(FakeIntersectionObserver.live()).toHaveLength(1));

    expect(rowsWhenWatched).toEqual([30, 60]);
    observe.mockRestore();
  });

  it('does not load more while the end is out of reach', async () => {
    const fetchMock = loggedIn({
      'GET /api/recent': activityPage([activityItem()], 'cursor-1'),
    });
    renderApp('/recent');
    await screen.findAllByRole('listitem');
    await waitFor(() => expect(FakeIntersectionObserver.live()).toHaveLength(1));

    act(() => FakeIntersectionObserver.live()[0]?.report(false));

    expect(requestsTo(fetchMock, '/api/recent')).toHaveLength(1);
  });
});

describe('empty and error texts', () => {
  it.each([
    ['/recent', 'No recent activity.'],
    ['/likes/me', 'No likes yet.'],
  ])('%s with no items says "%s"', async (path, text) => {
    loggedIn();
    renderApp(path);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: /Recent Activity|Likes/ })).not.toBeInTheDocument();
  });

  it.each([
    ['/recent/user/stranger', 'GET /api/recent', 'Failed to load recent activity.'],
    ['/likes/user/stranger', 'GET /api/likes', 'Failed to load likes.'],
  ])('%s of a non-friend shows the error and the detail', async (path, call, text) => {
    loggedIn({ [call]: json(404, { detail: 'stranger is not your friend' }) });
    renderApp(path);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(text);
    expect(alert).toHaveTextContent('stranger is not your friend');
  });
});

describe('rows', () => {
  const mine = activityItem({
    user: adaAsActivityUser,
    id: 'track-mine',
    title: 'Dancing Queen',
    playCount: 1,
  });
  const graces = activityItem({ user: grace, id: 'track-grace', title: 'Chiquitita' });

  it.each([
    ['/recent?q=abba', '/recent'],
    ['/likes/friends?q=abba', '/likes'],
  ])('on %s link user names to the /me or /user page, keeping q', async (path, base) => {
    loggedIn({
      'GET /api/recent': activityPage([mine, graces]),
      'GET /api/likes': activityPage([mine, graces]),
    });
    const { router } = renderApp(path);

    expect(await screen.findByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute(
      'href',
      `${base}/me?q=abba`,
    );
    await userEvent.click(screen.getByRole('link', { name: 'Grace Hopper' }));
    expect(router.state.location.pathname).toBe(`${base}/user/grace`);
    expect(router.state.location.search).toBe('?q=abba');
  });

  it('links the title, artists and album and shows cover, user and play count', async () => {
    loggedIn({ 'GET /api/recent': activityPage([mine, graces]) });
    renderApp('/recent');

    const [first, second] = await screen.findAllByRole('listitem');
    if (!first || !second) throw new Error('two rows expected');
    const row = within(first);
    expect(row.getByRole('link', { name: 'Dancing Queen' })).toHaveAttribute(
      'href',
      '/track/track-mine',
    );
    expect(row.getByRole('link', { name: 'ABBA' })).toHaveAttribute('href', '/artist/artist-abba');
    expect(row.getByRole('link', { name: 'Queen' })).toHaveAttribute(
      'href',
      '/artist/artist-queen',
    );
    expect(row.getByRole('link', { name: 'Album of track-mine' })).toHaveAttribute(
      'href',
      '/album/album-track-mine',
    );
    const cover = first.querySelector('img');
    expect(cover).toHaveAttribute('src', 'https://i.scdn.co/image/cover');
    // Behind the code and answers the rows' text needs (decision 0048).
    expect(cover).toHaveAttribute('loading', 'lazy');
    expect(cover).toHaveAttribute('fetchpriority', 'low');
    expect(first).toHaveTextContent('1 play');
    expect(second).toHaveTextContent('3 plays');
  });

  it('dates plays relatively on Recent, with the exact time on hover', async () => {
    vi.useFakeTimers({ now: new Date('2024-05-17T12:00:00Z'), shouldAdvanceTime: true });
    try {
      loggedIn({
        'GET /api/recent': activityPage([
          activityItem({ date: '2024-05-17T11:57:00Z' }),
          activityItem({ date: '2024-05-16T09:00:00Z' }),
        ]),
      });
      renderApp('/recent');

      const [recent, older] = await screen.findAllByRole('listitem');
      const recentTime = recent?.querySelector('time');
      expect(recentTime).toHaveTextContent('3 minutes ago');
      expect(recentTime).toHaveAttribute('dateTime', '2024-05-17T11:57:00Z');
      expect(recentTime?.getAttribute('title')).toMatch(/May 17, 2024/);
      expect(older?.querySelector('time')).toHaveTextContent('yesterday');
    } finally {
      vi.useRealTimers();
    }
  });

  it('dates likes absolutely, with the exact time on hover', async () => {
    loggedIn({ 'GET /api/likes': activityPage([activityItem({ date: '2023-03-04T18:30:00Z' })]) });
    renderApp('/likes');

    const time = (await screen.findByRole('listitem')).querySelector('time');
    expect(time).toHaveTextContent('Mar 4, 2023');
    expect(time?.getAttribute('title')).toMatch(/Mar 4, 2023, \d{1,2}:30/);
  });
});
