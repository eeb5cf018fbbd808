import 'fake-indexeddb/auto';
import type { ActivityPage } from '@earshot/contract/activity';
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clear, createStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_BANNER_TEXT } from '../src/app/layout/OfflineBanner';
import { keepOfflinePages } from '../src/app/offlinePages';
import { currentUserQueryOptions } from '../src/features/account/api/currentUser';
import { activityQueryKeys, type ActivityFilters } from '../src/features/activity/api/activityFeed';
import { OFFLINE_WRITE_MESSAGE } from '../src/lib/apiClient';
import { followBrowserOnlineState } from '../src/lib/online';
import { loadPage } from '../src/lib/browserLocation';
import { SAVED_QUERIES_WRITE_DELAY_MS } from '../src/lib/constants';
import { restoreSavedQueries } from '../src/lib/savedQueries';
import {
  activityItem,
  FakeIntersectionObserver,
  activityPage,
  grace,
  ignoredList,
} from './activityFixtures';
import { ada, fakeApi, json, loggedOut, noContent } from './fakeApi';
import { renderApp } from './renderApp';

const waterloo = activityItem({ id: 'track-w', uid: 'uid-w', title: 'Waterloo' });

// Logging out reloads the page.
vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

let online = true;

/** The browser's network goes (or comes back), as the browser reports it. */
function setNetwork(value: boolean) {
  online = value;
  act(() => {
    window.dispatchEvent(new Event(value ? 'online' : 'offline'));
  });
}

beforeEach(() => {
  FakeIntersectionObserver.install();
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  followBrowserOnlineState();
});

afterEach(() => {
  online = true;
  onlineManager.setOnline(true);
});

function renderRecent() {
  const fetchMock = fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/ignore': ignoredList(),
    'GET /api/recent': activityPage([waterloo]),
    'POST /api/like': json(200, { uid: 'uid-w', liked: true }),
  });
  const view = renderApp('/recent');
  return { fetchMock, ...view };
}

const likeCalls = (fetchMock: ReturnType<typeof fakeApi>) =>
  fetchMock.mock.calls.filter(([input]) => String(input) === '/api/like');

describe('offline', () => {
  it('says so in a banner while offline; the feed stays, marked as a saved copy', async () => {
    renderRecent();
    // The file's first render also loads the lazy pages' modules: slow on a loaded machine.
    const row = await screen.findByRole('link', { name: 'Waterloo' }, { timeout: 15_000 });
    expect(row).toBeInTheDocument();
    expect(screen.queryByText(OFFLINE_BANNER_TEXT)).not.toBeInTheDocument();

    setNetwork(false);

    const banner = await screen.findByText(OFFLINE_BANNER_TEXT);
    expect(banner.parentElement).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('link', { name: 'Waterloo' })).toBeInTheDocument();
    // The account menu loads once the page has (decision 0034).
    expect(
      await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' }),
    ).toBeVisible();
    expect(screen.getByText(/^Saved copy from/)).toHaveTextContent(
      /^Saved copy from just now, not live\.$/,
    );

    setNetwork(true);

    await waitFor(() => expect(screen.queryByText(OFFLINE_BANNER_TEXT)).not.toBeInTheDocument());
    expect(screen.queryByText(/^Saved copy from/)).not.toBeInTheDocument();
  });

  it('refuses a like made offline with a message; nothing is sent, then or later', async () => {
    const { fetchMock } = renderRecent();
    const like = await screen.findByRole('button', { name: 'Like Waterloo' });

    setNetwork(false);
    await userEvent.click(like);

    expect(await screen.findByText(OFFLINE_WRITE_MESSAGE)).toBeInTheDocument();
    expect(like).toHaveAttribute('aria-pressed', 'false');
    expect(like).toBeEnabled();

    setNetwork(true);
    await waitFor(() => expect(screen.queryByText(OFFLINE_BANNER_TEXT)).not.toBeInTheDocument());
    expect(like).toHaveAttribute('aria-pressed', 'false');
    expect(likeCalls(fetchMock)).toEqual([]);
  });

  it('says a page that was never loaded is not saved, instead of loading forever', async () => {
    const { router } = renderRecent();
    await screen.findByRole('link', { name: 'Waterloo' });

    setNetwork(false);
    await act(() => router.navigate('/likes'));

    expect(
      await screen.findByText(/^This page was not saved for offline use\./),
    ).toBeInTheDocument();
  });
});

const feedFilters: ActivityFilters = { includeMe: true, user: null, q: '' };
const searchFilters: ActivityFilters = { ...feedFilters, q: 'waterloo' };
const page = (title: string): { pages: ActivityPage[]; pageParams: (string | null)[] } => ({
  pages: [{ items: [activityItem({ title })], next_before: null }],
  pageParams: [null],
});
const userKey = currentUserQueryOptions().queryKey;
const feedKey = activityQueryKeys.feed('recent', feedFilters);
const searchKey = activityQueryKeys.feed('recent', searchFilters);

/** A fresh app cache with what was saved for offline use put back. */
async function restored(): Promise<QueryClient> {
  const queryClient = new QueryClient();
  await restoreSavedQueries(queryClient);
  return queryClient;
}

/** Lets `queryClient`'s pages be saved, and waits until they are. */
async function saveAll(queryClient: QueryClient, savedTitle: (client: QueryClient) => unknown) {
  const stop = keepOfflinePages(queryClient);
  await waitFor(async () => expect(savedTitle(await restored())).toBeDefined());
  stop();
}

const firstTitle = (queryClient: QueryClient) =>
  queryClient.getQueryData<ReturnType<typeof page>>(feedKey)?.pages[0]?.items[0]?.track.title;

describe('saved copies of pages', () => {
  // The app of the tests above saved Ada's pages too: each test starts from none.
  beforeEach(async () => {
    await clear(createStore('earshot-offline', 'saved-queries'));
  });

  it('keep the user and their feeds (not searches), and belong to that user alone', async () => {
    const adas = new QueryClient();
    adas.setQueryData(userKey, ada);
    adas.setQueryData(feedKey, page("Ada's song"));
    adas.setQueryData(searchKey, page('A search'));
    await saveAll(adas, firstTitle);

    const back = await restored();
    expect(back.getQueryData(userKey)).toEqual(ada);
    expect(firstTitle(back)).toBe("Ada's song");
    expect(back.getQueryData(searchKey)).toBeUndefined();

    // Grace signs in on the same browser: nothing of Ada's is carried into her copies.
    const graces = new QueryClient();
    graces.setQueryData(userKey, { ...ada, ...grace, email: null });
    graces.setQueryData(activityQueryKeys.feed('likes', feedFilters), page("Grace's like"));
    await saveAll(graces, (client) =>
      client.getQueryData(activityQueryKeys.feed('likes', feedFilters)),
    );

    const hers = await restored();
    expect(hers.getQueryData(userKey)).toMatchObject({ id: grace.id });
    expect(firstTitle(hers)).toBeUndefined();
  });

  it('are saved as the app starts and when a kept answer changes, not when another query does', async () => {
    const adas = new QueryClient();
    adas.setQueryData(userKey, ada);
    adas.setQueryData(feedKey, page("Ada's song"));
    const stop = keepOfflinePages(adas);
    // What was there when it started is saved.
    await waitFor(async () => expect(firstTitle(await restored())).toBe("Ada's song"));
    // Changed without telling the cache: only a save that runs would carry it.
    adas.getQueryData<ReturnType<typeof page>>(feedKey)!.pages[0]!.items[0]!.track.title = 'Later';

    adas.setQueryData(['spotify', 'playback'], { playing: true });
    adas.setQueryData(searchKey, page('A search'));
    await new Promise((resolve) => setTimeout(resolve, 2 * SAVED_QUERIES_WRITE_DELAY_MS));
    expect(firstTitle(await restored())).toBe("Ada's song");

    adas.setQueryData(feedKey, page('Newer'));
    await waitFor(async () => expect(firstTitle(await restored())).toBe('Newer'));
    stop();
  });

  it('are forgotten when the session turns out to be over', async () => {
    const adas = new QueryClient();
    adas.setQueryData(userKey, ada);
    adas.setQueryData(feedKey, page("Ada's song"));
    await saveAll(adas, firstTitle);

    fakeApi({ 'GET /api/user/me': loggedOut });
    renderApp('/');

    await waitFor(async () => expect((await restored()).getQueryData(userKey)).toBeUndefined());
    expect(firstTitle(await restored())).toBeUndefined();
  });

  it('are forgotten on logging out, before the reload, and none is written afterwards', async () => {
    fakeApi({
      'GET /api/user/me': json(200, ada),
      'GET /api/spotify/stats': json(200, { active: true }),
      'GET /api/ignore': ignoredList(),
      'GET /api/recent': activityPage([waterloo]),
      'POST /api/logout': noContent(),
    });
    renderApp('/recent');
    await screen.findByRole('link', { name: 'Waterloo' });
    await waitFor(async () => expect(firstTitle(await restored())).toBe('Waterloo'));

    // Another copy of the app saving into the same browser, still running as the logout ends.
    const other = new QueryClient();
    other.setQueryData(userKey, ada);
    const stopOther = keepOfflinePages(other);

    await userEvent.click(
      await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/'));

    expect((await restored()).getQueryData(userKey)).toBeUndefined();
    // Until the page is gone, answers still arriving are not saved again.
    other.setQueryData(feedKey, page("Ada's song"));
    await new Promise((resolve) => setTimeout(resolve, 2 * SAVED_QUERIES_WRITE_DELAY_MS));
    stopOther();
    expect(firstTitle(await restored())).toBeUndefined();
  });
});
