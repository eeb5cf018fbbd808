import type { SuggestionItem } from '@earshot/contract/suggestions';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DISCOVER_FIRST_SECTION_DELAY_MS,
  DISCOVER_NEXT_SECTION_DELAY_MS,
} from '../src/lib/constants';
import { activityItem, deferred, ignoredList, inSequence, requestsTo } from './activityFixtures';
import { ada, fakeApi, json, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

const PATHS = {
  followed: '/api/suggestions/unheard-from-followed',
  onRepeat: '/api/suggestions/like-on-repeat',
  friends: '/api/suggestions/friends-favorites',
  rediscover: '/api/suggestions/rediscover-likes',
} as const;
type Section = keyof typeof PATHS;

const TITLES: Record<Section, string> = {
  followed: 'New from Followed Artists',
  onRepeat: 'Like Your On-Repeat',
  friends: 'Popular with Friends',
  rediscover: 'Rediscover Likes',
};

function suggestion(title: string, reason: string, liked = false): SuggestionItem {
  const { track } = activityItem({ title });
  return { track, liked, reason };
}

const suggestions = (...items: SuggestionItem[]) => json(200, { items });

const filled: Record<Section, FakeAnswer> = {
  followed: suggestions(suggestion('Fresh Paint', 'New album from Nova, an artist you follow')),
  onRepeat: suggestions(
    suggestion('Loop', 'Played 14 times in the last 30 days'),
    suggestion('Again', 'Played 9 times in the last 30 days'),
  ),
  friends: suggestions(suggestion('Shared', 'Liked by Aiko and 2 other friends')),
  rediscover: suggestions(
    suggestion('Old Flame', 'You played this 60 times, last in May 2023', true),
  ),
};

function serve(
  answers: Partial<Record<Section, FakeAnswer>> = {},
  extra: Record<string, FakeAnswer> = {},
) {
  const all = { ...filled, ...answers };
  return fakeApi({
    'GET /api/user/me': json(200, ada),
    'GET /api/spotify/stats': json(200, { active: true }),
    'GET /api/ignore': ignoredList(),
    ...Object.fromEntries(
      (Object.keys(PATHS) as Section[]).map((section) => [`GET ${PATHS[section]}`, all[section]]),
    ),
    ...extra,
  });
}

/**
 * Lets fake time pass, running what promises and timers are due on the way, in steps of at most
 * 50 ms so that React renders what each step settled before the next timers run.
 */
async function pass(ms: number) {
  let left = ms;
  do {
    const step = Math.min(left, 50);
    await act(() => vi.advanceTimersByTimeAsync(step));
    left -= step;
  } while (left > 0);
}

async function openDiscover() {
  renderApp('/discover');
  await pass(0);
  await pass(0);
}

const calls = (fetchMock: ReturnType<typeof fakeApi>, section: Section) =>
  requestsTo(fetchMock, PATHS[section]);

const sectionNamed = (section: Section) => screen.queryByRole('region', { name: TITLES[section] });

/** Opens Discover and lets every section load. */
async function openLoaded() {
  await openDiscover();
  await pass(DISCOVER_FIRST_SECTION_DELAY_MS + 3 * DISCOVER_NEXT_SECTION_DELAY_MS + 100);
}

/** jsdom has no layout: Radix's tooltip positioning only needs the observer to exist. */
class NoLayoutResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

// The page's chunk loads before the fake clock starts, as after a prefetch: the stages are timed
// from the page's first render, not from the download of its code.
beforeAll(() => import('../src/app/routes/DiscoverRoute'));
beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('ResizeObserver', NoLayoutResizeObserver);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Discover loading in stages', () => {
  it('starts the first section after 500 ms and each next one 300 ms after the previous finished', async () => {
    const onRepeat = deferred();
    const fetchMock = serve({ onRepeat: onRepeat.answer });
    await openDiscover();
    expect(screen.getByText('Discovering new music for you...')).toBeInTheDocument();

    await pass(DISCOVER_FIRST_SECTION_DELAY_MS - 1);
    expect(calls(fetchMock, 'followed')).toHaveLength(0);
    await pass(1);
    expect(calls(fetchMock, 'followed')).toHaveLength(1);
    expect(calls(fetchMock, 'onRepeat')).toHaveLength(0);

    await pass(DISCOVER_NEXT_SECTION_DELAY_MS - 1);
    expect(calls(fetchMock, 'onRepeat')).toHaveLength(0);
    await pass(1);
    expect(calls(fetchMock, 'onRepeat')).toHaveLength(1);

    // The next waits for this one to finish, however long it takes.
    await pass(5_000);
    expect(calls(fetchMock, 'friends')).toHaveLength(0);
    onRepeat.resolve(filled.onRepeat);
    await pass(0);
    await pass(DISCOVER_NEXT_SECTION_DELAY_MS - 1);
    expect(calls(fetchMock, 'friends')).toHaveLength(0);
    await pass(1);
    expect(calls(fetchMock, 'friends')).toHaveLength(1);
    expect(calls(fetchMock, 'rediscover')).toHaveLength(0);

    await pass(DISCOVER_NEXT_SECTION_DELAY_MS);
    expect(calls(fetchMock, 'rediscover')).toHaveLength(1);
    await pass(0);
    expect(screen.queryByText('Discovering new music for you...')).not.toBeInTheDocument();
  });

  it('asks 5 per section, and the time filter for Like Your On-Repeat', async () => {
    const fetchMock = serve();
    await openLoaded();
    for (const section of Object.keys(PATHS) as Section[]) {
      const [url] = calls(fetchMock, section);
      expect(url?.searchParams.get('limit'), section).toBe('5');
    }
    expect(calls(fetchMock, 'onRepeat')[0]?.searchParams.get('days')).toBe('30');
  });

  it('shows the four titles, each item with its links, reason, play and like buttons', async () => {
    serve();
    await openLoaded();
    for (const section of Object.keys(PATHS) as Section[]) {
      expect(screen.getByRole('heading', { name: TITLES[section] })).toBeInTheDocument();
    }
    const friends = within(sectionNamed('friends')!);
    const row = friends.getByRole('listitem');
    expect(within(row).getByRole('link', { name: 'Shared' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/track\/track-\d+$/),
    );
    expect(within(row).getByRole('link', { name: 'ABBA' })).toHaveAttribute(
      'href',
      '/artist/artist-abba',
    );
    expect(within(row).getByRole('link', { name: /^Album of track-/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/album\/album-track-\d+$/),
    );
    expect(within(row).getByText('Liked by Aiko and 2 other friends')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Like Shared' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    // The viewer is subscribed: each suggestion can be played from here.
    expect(within(row).getByRole('button', { name: 'Play Shared' })).toBeEnabled();
    const rediscover = within(sectionNamed('rediscover')!);
    expect(rediscover.getByRole('button', { name: 'Like Old Flame' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('explains each section in an info tooltip', async () => {
    serve();
    await openLoaded();
    fireEvent.click(screen.getByRole('button', { name: 'About Popular with Friends' }));
    await pass(0);
    expect(screen.getByRole('tooltip')).toHaveTextContent(/friends played or liked lately/);
  });
});

describe('retries', () => {
  it('retries a failed section up to 3 times, then says it failed', async () => {
    const fetchMock = serve({ followed: json(503, { detail: 'Spotify is busy' }) });
    await openDiscover();
    await pass(DISCOVER_FIRST_SECTION_DELAY_MS);
    await pass(30_000);
    expect(calls(fetchMock, 'followed')).toHaveLength(4);
    const followed = within(sectionNamed('followed')!);
    expect(followed.getByRole('alert')).toHaveTextContent('Failed to load suggestions');
    // The next sections still load.
    expect(sectionNamed('onRepeat')).toBeInTheDocument();
  });

  it('shows the section once a retry succeeds', async () => {
    const fetchMock = serve({
      followed: inSequence(
        json(503, { detail: 'busy' }),
        json(503, { detail: 'busy' }),
        filled.followed,
      ),
    });
    await openDiscover();
    await pass(DISCOVER_FIRST_SECTION_DELAY_MS);
    await pass(30_000);
    expect(calls(fetchMock, 'followed')).toHaveLength(3);
    expect(within(sectionNamed('followed')!).getByText('Fresh Paint')).toBeInTheDocument();
  });

  it.each([
    ['a 500', json(500, { detail: 'Internal Server Error' })],
    ['an error whose text contains 500', json(502, { detail: 'Spotify answered 500' })],
  ])('does not retry %s', async (_name, answer) => {
    const fetchMock = serve({ friends: answer });
    await openDiscover();
    await pass(DISCOVER_FIRST_SECTION_DELAY_MS + 3 * DISCOVER_NEXT_SECTION_DELAY_MS);
    await pass(30_000);
    expect(calls(fetchMock, 'friends')).toHaveLength(1);
    expect(within(sectionNamed('friends')!).getByRole('alert')).toHaveTextContent(
      'Failed to load suggestions',
    );
  });
});

describe('empty sections', () => {
  it('hides a section without items', async () => {
    serve({ followed: suggestions(), rediscover: suggestions() });
    await openLoaded();
    expect(sectionNamed('followed')).not.toBeInTheDocument();
    expect(sectionNamed('rediscover')).not.toBeInTheDocument();
    expect(sectionNamed('onRepeat')).toBeInTheDocument();
    expect(screen.queryByText('No suggestions available at the moment')).not.toBeInTheDocument();
  });

  it('says when there is nothing at all', async () => {
    serve({
      followed: suggestions(),
      onRepeat: suggestions(),
      friends: suggestions(),
      rediscover: suggestions(),
    });
    await openLoaded();
    expect(screen.getByText('No suggestions available at the moment')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
  });

  it('keeps a section the viewer filtered to nothing, with its placeholder and filter', async () => {
    serve({
      onRepeat: (url = '') =>
        new URL(url, 'http://earshot.test').searchParams.get('days') === '7'
          ? suggestions()(url)
          : filled.onRepeat(url),
    });
    await openLoaded();
    fireEvent.change(screen.getByRole('combobox', { name: 'Time range' }), {
      target: { value: '7' },
    });
    await pass(0);
    await pass(0);
    const onRepeat = within(sectionNamed('onRepeat')!);
    expect(onRepeat.getByText('No suggestions right now')).toBeInTheDocument();
    expect(onRepeat.getByRole('combobox', { name: 'Time range' })).toHaveValue('7');
  });
});

describe('time filter and refresh', () => {
  it('offers all time, 1 year, 3 months, 1 month and 1 week', async () => {
    const fetchMock = serve();
    await openLoaded();
    const filter = screen.getByRole('combobox', { name: 'Time range' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All time', '1 Year', '3 Months', '1 Month', '1 Week']);
    for (const [value, days] of [
      ['7', '7'],
      ['365', '365'],
      ['all', null],
    ] as const) {
      fireEvent.change(screen.getByRole('combobox', { name: 'Time range' }), {
        target: { value },
      });
      await pass(100);
      expect(calls(fetchMock, 'onRepeat').at(-1)?.searchParams.get('days')).toBe(days);
    }
  });

  it('refreshes the refreshable sections only', async () => {
    const fetchMock = serve();
    await openLoaded();
    expect(
      screen.queryByRole('button', { name: 'Refresh Like Your On-Repeat' }),
    ).not.toBeInTheDocument();
    for (const section of ['followed', 'friends', 'rediscover'] as const) {
      fireEvent.click(screen.getByRole('button', { name: `Refresh ${TITLES[section]}` }));
      await pass(0);
      expect(calls(fetchMock, section)).toHaveLength(2);
    }
  });
});

describe('liking from Like Your On-Repeat', () => {
  it('takes the song out of the section at once and reads the section again', async () => {
    const fetchMock = serve(
      {
        onRepeat: inSequence(
          filled.onRepeat,
          suggestions(suggestion('Again', 'Played 9 times in the last 30 days')),
        ),
      },
      { 'POST /api/like': json(200, { uid: 'any', liked: true }) },
    );
    await openLoaded();
    const onRepeat = within(sectionNamed('onRepeat')!);
    fireEvent.click(onRepeat.getByRole('button', { name: 'Like Loop' }));
    await pass(0);
    expect(onRepeat.queryByText('Loop')).not.toBeInTheDocument();
    await pass(100);
    expect(requestsTo(fetchMock, '/api/like')).toHaveLength(1);
    expect(calls(fetchMock, 'onRepeat')).toHaveLength(2);
    expect(onRepeat.getByText('Again')).toBeInTheDocument();
  });
});
