import type { LiveNowPlaying } from '@earshot/contract/live';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  activityItem,
  activityPage,
  deferred,
  FakeIntersectionObserver,
  grace,
  ignoredList,
  inSequence,
  requestsTo,
  watchingObserver,
} from './activityFixtures';
import { ada, fakeApi, json, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';
import type * as LikeButtonModule from '../src/features/activity/components/LikeButton';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

/** How often each row's like heart rendered, by track title: a row renders with its heart. */
const likeButtonRenders = vi.hoisted(() => new Map<string, number>());
vi.mock('../src/features/activity/components/LikeButton', async (importOriginal) => {
  const real = await importOriginal<typeof LikeButtonModule>();
  return {
    ...real,
    LikeHeart(props: Parameters<typeof real.LikeHeart>[0]) {
      likeButtonRenders.set(props.title, (likeButtonRenders.get(props.title) ?? 0) + 1);
      return real.LikeHeart(props);
    },
  };
});

/** A controllable EventSource for jsdom, which has none. */
class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  closed = false;

  constructor(readonly url: string) {
    super();
    FakeEventSource.instances.push(this);
  }

  static get latest(): FakeEventSource {
    const source = FakeEventSource.instances.at(-1);
    if (!source) throw new Error('no EventSource opened');
    return source;
  }

  close() {
    this.closed = true;
  }

  emit(event: string, data: unknown, id = '1') {
    act(() => {
      this.dispatchEvent(new MessageEvent(event, { data: JSON.stringify(data), lastEventId: id }));
    });
  }

  fail() {
    act(() => {
      this.dispatchEvent(new Event('error'));
    });
  }
}

function setScroll(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
}

function loggedIn(answers: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/ignore': ignoredList(),
    'GET /api/friendship/pending': json(200, { requests: [] }),
    'GET /api/recent': activityPage([]),
    'GET /api/likes': activityPage([]),
    ...answers,
  });
}

async function openStream() {
  await waitFor(() => expect(FakeEventSource.instances.length).toBeGreaterThan(0));
  const source = FakeEventSource.latest;
  source.emit('ready', { missed: false }, '10');
  return source;
}

const likeRows = () => within(screen.getByRole('list', { name: 'Likes' })).getAllByRole('listitem');

const rowTitles = () =>
  within(screen.getByRole('list', { name: 'Recent Activity' }))
    .getAllByRole('listitem')
    .map((row) => row.textContent);

beforeEach(() => {
  FakeIntersectionObserver.install();
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  setScroll(0);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('live activity on Recent and Likes', () => {
  it('opens one stream for a signed-in viewer', async () => {
    loggedIn();
    renderApp('/');
    await screen.findByText('No recent activity.');
    // The live sync's code loads once the viewer is known, maybe after the feed shows.
    await waitFor(() =>
      expect(FakeEventSource.instances.map((source) => source.url)).toEqual(['/api/live']),
    );
    await act(() => new Promise((settled) => setTimeout(settled, 100)));
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('puts a friend’s new play at the top without reloading the page', async () => {
    const older = activityItem({ title: 'Older song', date: '2024-05-17T10:00:00.000Z' });
    const fetchMock = loggedIn({ 'GET /api/recent': activityPage([older]) });
    renderApp('/');
    await screen.findByText('Older song');
    const source = await openStream();

    source.emit(
      'play',
      activityItem({ title: 'Fresh song', date: '2024-05-17T11:00:00.000Z' }),
      '11',
    );
    await screen.findByText('Fresh song');
    expect(rowTitles()[0]).toContain('Fresh song');
    expect(rowTitles()[1]).toContain('Older song');
    expect(requestsTo(fetchMock, '/api/recent')).toHaveLength(1);
  });

  it('puts a burst of plays onto the feed together, in one update of the list', async () => {
    const older = activityItem({ title: 'Older song', date: '2024-05-17T10:00:00.000Z' });
    loggedIn({ 'GET /api/recent': activityPage([older]) });
    const { queryClient } = renderApp('/');
    await screen.findByText('Older song');
    const source = await openStream();
    let feedUpdates = 0;
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.query.queryKey[0] === 'activity') {
        if (event.action.type === 'success') feedUpdates += 1;
      }
    });

    source.emit('play', activityItem({ title: 'One', date: '2024-05-17T11:00:00.000Z' }), '11');
    source.emit('play', activityItem({ title: 'Two', date: '2024-05-17T11:05:00.000Z' }), '12');
    source.emit('play', activityItem({ title: 'Three', date: '2024-05-17T11:10:00.000Z' }), '13');

    await screen.findByText('Three');
    expect(rowTitles().map((row) => /^(Three|Two|One|Older song)/.exec(row)?.[1])).toEqual([
      'Three',
      'Two',
      'One',
      'Older song',
    ]);
    expect(feedUpdates).toBe(1);
  });

  it('renders only the new row when a live play arrives, not the rows already shown', async () => {
    const older = activityItem({ title: 'Older song', date: '2024-05-17T10:00:00.000Z' });
    loggedIn({ 'GET /api/recent': activityPage([older]) });
    renderApp('/');
    await screen.findByText('Older song');
    const source = await openStream();
    await act(() => new Promise((settled) => setTimeout(settled, 50)));
    const before = likeButtonRenders.get('Older song');

    source.emit(
      'play',
      activityItem({ title: 'Fresh song', date: '2024-05-17T11:00:00.000Z' }),
      '11',
    );
    await screen.findByText('Fresh song');

    expect(likeButtonRenders.get('Fresh song')).toBeGreaterThan(0);
    expect(likeButtonRenders.get('Older song')).toBe(before);
  });

  it('keeps the page still while scrolled: an "N new" pill brings the items in', async () => {
    const older = activityItem({ title: 'Older song', date: '2024-05-17T10:00:00.000Z' });
    loggedIn({ 'GET /api/recent': activityPage([older]) });
    renderApp('/');
    await screen.findByText('Older song');
    const source = await openStream();
    setScroll(800);

    source.emit('play', activityItem({ title: 'One', date: '2024-05-17T11:00:00.000Z' }), '11');
    source.emit('play', activityItem({ title: 'Two', date: '2024-05-17T11:05:00.000Z' }), '12');
    const pill = await screen.findByRole('button', { name: '2 new' });
    expect(screen.queryByText('One')).not.toBeInTheDocument();
    expect(rowTitles()).toHaveLength(1);

    await userEvent.click(pill);
    expect(await screen.findByText('Two')).toBeInTheDocument();
    expect(rowTitles().map((text) => text?.includes('Two') || text?.includes('One'))).toEqual([
      true,
      true,
      false,
    ]);
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
    expect(screen.queryByRole('button', { name: /new$/ })).not.toBeInTheDocument();
  });

  it('leaves the viewer’s own plays out of Friends', async () => {
    loggedIn({ 'GET /api/recent': activityPage([activityItem({ title: 'Older song' })]) });
    renderApp('/recent/friends');
    await screen.findByText('Older song');
    const source = await openStream();
    source.emit(
      'play',
      activityItem({ title: 'Own song', user: { id: ada.id, username: 'ada', name: 'Ada' } }),
    );
    source.emit('play', activityItem({ title: 'Graces' }), '12');
    await screen.findByText('Graces');
    expect(screen.queryByText('Own song')).not.toBeInTheDocument();
  });

  it('adds nothing to search results', async () => {
    loggedIn({ 'GET /api/recent': activityPage([activityItem({ title: 'Found song' })]) });
    renderApp('/recent?q=found');
    await screen.findByText('Found song');
    const source = await openStream();
    source.emit('play', activityItem({ title: 'Unrelated' }), '11');
    source.emit('now-playing', {
      user: grace,
      track: null,
      is_playing: false,
      progress_ms: null,
      observed_at: null,
    });
    expect(screen.queryByText('Unrelated')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /new$/ })).not.toBeInTheDocument();
  });

  it('takes an unliked song off the Likes page', async () => {
    const liked = activityItem({ title: 'Loved once', uid: 'uid-loved' });
    loggedIn({ 'GET /api/likes': activityPage([liked]) });
    renderApp('/likes');
    await screen.findByText('Loved once');
    const source = await openStream();
    source.emit('like', { ...liked, unliked: true }, '11');
    await waitFor(() => expect(screen.queryByText('Loved once')).not.toBeInTheDocument());
  });

  it('keeps a like that came in while the next page was on its way', async () => {
    const firstPage = Array.from({ length: 30 }, (_, index) =>
      activityItem({ date: new Date(Date.UTC(2024, 4, 17, 10, 59 - index)).toISOString() }),
    );
    const nextPage = deferred();
    loggedIn({
      'GET /api/likes': inSequence(activityPage(firstPage, 'cursor-30'), nextPage.answer),
    });
    renderApp('/likes');
    await waitFor(() => expect(likeRows()).toHaveLength(30));
    const source = await openStream();
    const observer = await watchingObserver();
    act(() => observer.report(true));
    await screen.findByText('Loading more…');

    source.emit('like', { ...activityItem({ title: 'Liked meanwhile' }), unliked: false }, '11');
    await screen.findByText('Liked meanwhile');
    // And an unlike of a row already shown, while the page is still on its way.
    source.emit('like', { ...firstPage[1]!, unliked: true }, '12');
    await waitFor(() => expect(likeRows()).toHaveLength(30));
    act(() => nextPage.resolve(activityPage([activityItem({ title: 'From the next page' })])));

    await screen.findByText('From the next page');
    expect(likeRows()).toHaveLength(31);
    expect(likeRows()[0]).toHaveTextContent('Liked meanwhile');
    expect(screen.queryByText(firstPage[1]!.track.title)).not.toBeInTheDocument();
  });

  it('shows discreetly that it reconnects, and resumes after the last event', async () => {
    loggedIn();
    renderApp('/');
    await screen.findByText('No recent activity.');
    const source = await openStream();
    expect(screen.queryByText('Live updates paused, reconnecting…')).not.toBeInTheDocument();
    source.fail();
    expect(await screen.findByText('Live updates paused, reconnecting…')).toBeInTheDocument();
    expect(source.closed).toBe(true);
    // The first retry comes after a second.
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(FakeEventSource.latest.url).toBe('/api/live?last_event_id=10');
    FakeEventSource.latest.emit('ready', { missed: false }, '10');
    await waitFor(() =>
      expect(screen.queryByText('Live updates paused, reconnecting…')).not.toBeInTheDocument(),
    );
  });

  it('waits as long as the server asked when it dropped the page for reading too slowly', async () => {
    loggedIn();
    renderApp('/');
    await screen.findByText('No recent activity.');
    const source = await openStream();
    // Like the server's last event: no id of its own.
    source.emit('dropped', { retry_ms: 30_000 }, '');
    source.fail();
    expect(await screen.findByText('Live updates paused, reconnecting…')).toBeInTheDocument();
    // Not at the first backoff (1 s): the ask was 30 s.
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_500)));
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});

describe('Listening now', () => {
  const playing = (overrides: Partial<LiveNowPlaying> = {}): LiveNowPlaying => ({
    user: grace,
    track: activityItem({ title: 'Dancing Queen', id: 'track-dq' }).track,
    is_playing: true,
    progress_ms: 60_000,
    observed_at: new Date().toISOString(),
    ...overrides,
  });

  it('shows what friends play now on Recent, with links to the track and the friend', async () => {
    loggedIn();
    renderApp('/');
    await screen.findByText('No recent activity.');
    const source = await openStream();
    expect(screen.queryByRole('heading', { name: 'Listening now' })).not.toBeInTheDocument();

    source.emit('now-playing', playing());
    const strip = (await screen.findByRole('heading', { name: 'Listening now' })).closest(
      'section',
    );
    expect(strip).not.toBeNull();
    const inStrip = within(strip as HTMLElement);
    expect(inStrip.getByRole('link', { name: 'Dancing Queen' })).toHaveAttribute(
      'href',
      '/track/track-dq',
    );
    expect(inStrip.getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/user/grace',
    );
    const progress = inStrip.getByRole('progressbar', { name: 'Dancing Queen progress' });
    expect(progress).toHaveAttribute('aria-valuetext', expect.stringMatching(/^1:0\d of 3:35$/));

    source.emit('now-playing', playing({ track: null, is_playing: false, progress_ms: null }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Listening now' })).not.toBeInTheDocument(),
    );
  });

  it('keeps each friend in their place when one of them changes track', async () => {
    loggedIn();
    renderApp('/');
    await screen.findByText('No recent activity.');
    const source = await openStream();
    const linus = { id: 'user-linus', username: 'linus', name: 'Linus Torvalds' };
    source.emit('now-playing', playing());
    source.emit('now-playing', playing({ user: linus }));
    const strip = within(screen.getByRole('region', { name: 'Listening now' }));
    const friends = () =>
      strip
        .getAllByRole('listitem')
        .map((item) => within(item).getAllByRole('link')[1]!.textContent);
    expect(friends()).toEqual(['Grace Hopper', 'Linus Torvalds']);

    // A new track (or a seek) moved Grace to the end, and the cards under the reader's eyes.
    const next = activityItem({ title: 'Waterloo', id: 'track-waterloo' }).track;
    source.emit('now-playing', playing({ track: next, progress_ms: 0 }));
    await screen.findByRole('link', { name: 'Waterloo' });
    expect(friends()).toEqual(['Grace Hopper', 'Linus Torvalds']);

    source.emit('now-playing', playing({ track: null, is_playing: false, progress_ms: null }));
    await waitFor(() => expect(friends()).toEqual(['Linus Torvalds']));
  });

  it('has its place beside the list, not in the list’s column above it', async () => {
    loggedIn({ 'GET /api/recent': activityPage([activityItem({ title: 'Fernando' })]) });
    renderApp('/');
    const list = await screen.findByRole('list', { name: 'Recent Activity' });
    const source = await openStream();
    source.emit('now-playing', playing());
    const strip = await screen.findByRole('region', { name: 'Listening now' });
    // The list's column holds the chips and the list only: what appears in the strip's place
    // (a column on wide screens, a bar docked above the player on narrow ones, activity.css)
    // cannot push the rows down (decision 0035).
    const column = list.closest('.activity-page__body');
    expect(column).not.toBeNull();
    expect(column).not.toContainElement(strip);
    expect(strip.parentElement).toBe(column!.parentElement);
    expect(strip.parentElement).toHaveClass('activity-page__columns--with-aside');
  });

  it('leaves out a friend whose track ended over a minute ago with no word since', async () => {
    loggedIn();
    renderApp('/');
    await screen.findByText('No recent activity.');
    const source = await openStream();
    // Dancing Queen lasts 3:35; told at 1:00, it ends 155 s after the word.
    const toldAgo = (ms: number) => new Date(Date.now() - ms).toISOString();
    source.emit('now-playing', playing({ observed_at: toldAgo(155_000 + 61_000) }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('heading', { name: 'Listening now' })).not.toBeInTheDocument();

    source.emit('now-playing', playing({ observed_at: toldAgo(155_000 + 50_000) }));
    expect(await screen.findByRole('heading', { name: 'Listening now' })).toBeInTheDocument();
  });

  it('is not on Likes, and drops a friend at the unfriend', async () => {
    loggedIn();
    const { router } = renderApp('/');
    await screen.findByText('No recent activity.');
    const source = await openStream();
    source.emit('now-playing', playing());
    await screen.findByRole('heading', { name: 'Listening now' });
    await act(() => router.navigate('/likes'));
    await screen.findByText('No likes yet.').catch(() => undefined);
    expect(screen.queryByRole('heading', { name: 'Listening now' })).not.toBeInTheDocument();
    await act(() => router.navigate('/'));
    await screen.findByRole('heading', { name: 'Listening now' });
    source.emit('friendship', { user: grace, status: 'none' });
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Listening now' })).not.toBeInTheDocument(),
    );
  });
});

describe('the bell on friendship events', () => {
  it('shows a new friend request at once', async () => {
    const request = { user: { ...grace, picture: null } };
    loggedIn({
      'GET /api/friendship/pending': inSequence(
        json(200, { requests: [] }),
        json(200, { requests: [request] }),
      ),
    });
    renderApp('/');
    await screen.findByRole('button', { name: 'Notifications' });
    const source = await openStream();
    source.emit('friendship', { user: grace, status: 'pending_incoming' }, '11');
    expect(await screen.findByRole('button', { name: 'Notifications (1)' })).toBeInTheDocument();
  });
});
