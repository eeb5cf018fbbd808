import type { PublicProfile, TopSong } from '@earshot/contract/profile';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { activityItem, ignoredList, requestsTo } from './activityFixtures';
import { ada, fakeApi, json, loggedOut, requestedUrls, type FakeAnswer } from './fakeApi';
import { renderApp } from './renderApp';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

function song(rank: number, plays: number): TopSong {
  return {
    track: {
      id: `track-${rank}`,
      uid: `uid-${rank}`,
      title: `Song ${rank}`,
      artists: [{ id: `artist-${rank}`, name: `Artist ${rank}` }],
      album: { id: `album-${rank}`, name: `Album ${rank}`, picture: null, release_date: null },
      duration: 200_000,
      popularity: 50,
    },
    play_count: plays,
  };
}

const weeklyPlays = Array.from({ length: 52 }, (_, index) => ({
  week: new Date(Date.UTC(2024, 2, 4 + 7 * index)).toISOString().slice(0, 10),
  plays: index === 40 ? 120 : 10,
}));

const baseStats: PublicProfile['stats'] = {
  total_likes: 56,
  total_plays: 1234,
  total_listening_time_sec: 3 * 86_400 + 4 * 3_600 + 12 * 60 + 30,
  listening_time_last_30_days_sec: 5 * 3_600 + 7 * 60,
  tracking_since: '2024-03-05T10:00:00.000Z',
  most_played_decade: '1980s',
  most_played_genre: 'synthpop',
  playlists: 12,
  artists: 345,
  top_songs_30_days: null,
  top_songs_all_time: null,
  top_artists: null,
  weekly_plays: null,
};

const highlights: Partial<PublicProfile['stats']> = {
  top_songs_30_days: [song(1, 42), song(2, 30), song(3, 20), song(4, 1)],
  top_songs_all_time: [song(5, 400)],
  top_artists: [
    { id: 'artist-a', name: 'Kraftwerk', picture: null, play_count: 99 },
    { id: 'artist-b', name: 'Yazoo', picture: null, play_count: 50 },
  ],
  weekly_plays: weeklyPlays,
};

function graceProfile(overrides: Partial<PublicProfile> = {}): PublicProfile {
  return {
    user: {
      id: 'user-grace',
      name: 'Grace Hopper',
      username: 'grace',
      picture: null,
      is_friend: false,
    },
    friendship: 'none',
    taste_match: null,
    stats: baseStats,
    ...overrides,
  };
}

const friendProfile = graceProfile({
  user: {
    id: 'user-grace',
    name: 'Grace Hopper',
    username: 'grace',
    picture: null,
    is_friend: true,
  },
  friendship: 'friends',
  taste_match: 87,
  stats: { ...baseStats, ...highlights },
});

function profileApi(me: FakeAnswer, profile: FakeAnswer, extra: Record<string, FakeAnswer> = {}) {
  return fakeApi({
    'GET /api/user/me': me,
    'GET /api/friendship/pending': json(200, { requests: [] }),
    'GET /api/user/grace/public': profile,
    ...extra,
  });
}

const FRIEND_BUTTON_TEXTS = ['✓ Friends', 'Request sent', 'Respond pending', 'Add friend'];

function expectNoFriendButton() {
  for (const text of FRIEND_BUTTON_TEXTS) {
    expect(screen.queryByRole('button', { name: text })).not.toBeInTheDocument();
  }
}

function statValue(label: string): string | null {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? null;
}

describe('public profile for a visitor', () => {
  it('shows name, username, avatar and stats, without friend button or highlights', async () => {
    profileApi(loggedOut, json(200, graceProfile({ friendship: null })));
    renderApp('/user/grace');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' }),
    ).toBeInTheDocument();
    expect(screen.getByText('@grace')).toBeInTheDocument();
    expect(screen.getByText('G')).toHaveClass('avatar');
    expect(statValue('Total likes')).toBe('56');
    expect(statValue('Total plays')).toBe('1,234');
    expect(statValue('Total listening time')).toBe('3d 4h 12m');
    expect(statValue('Listening time, last 30 days')).toBe('5h 7m');
    expect(statValue('Tracking since')).toBe('Mar 5, 2024');
    expect(statValue('Most played decade')).toBe('1980s');
    expect(statValue('Most played genre')).toBe('synthpop');
    expect(statValue('Playlists')).toBe('12');
    expect(statValue('Artists')).toBe('345');

    expectNoFriendButton();
    expect(screen.queryByRole('heading', { name: 'Top Highlights' })).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Listening activity' })).not.toBeInTheDocument();
    expect(screen.queryByText(/taste match/)).not.toBeInTheDocument();
  });

  it('publishes metadata for sharing', async () => {
    profileApi(loggedOut, json(200, graceProfile({ friendship: null })), {
      'GET /api/user/user-grace/public': json(200, graceProfile({ friendship: null })),
    });
    renderApp('/user/user-grace');

    await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' });
    expect(document.title).toBe('Grace Hopper (@grace) - Earshot');
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute(
      'content',
      'Grace Hopper (@grace) on Earshot: 1,234 plays, 56 liked tracks, mostly synthpop.',
    );
    expect(document.querySelector('link[rel="canonical"]')).toHaveAttribute(
      'href',
      `${window.location.origin}/user/grace`,
    );
    expect(document.querySelector('meta[property="og:type"]')).toHaveAttribute(
      'content',
      'profile',
    );
    expect(document.querySelector('meta[property="og:image"]')).toHaveAttribute(
      'content',
      `${window.location.origin}/social-card.png`,
    );
    const structured = document.querySelector('script[type="application/ld+json"]');
    expect(JSON.parse(structured?.textContent ?? '{}')).toMatchObject({
      '@type': 'ProfilePage',
      mainEntity: { '@type': 'Person', name: 'Grace Hopper', alternateName: '@grace' },
    });
  });
});

describe('public profile for a friend', () => {
  it('shows Top Highlights with medals, then #n, and play counts', async () => {
    profileApi(json(200, ada), json(200, friendProfile));
    renderApp('/user/grace');

    const card = (await screen.findByRole('heading', { name: 'Top Highlights' })).closest(
      'section',
    );
    if (!card) throw new Error('no highlights card');
    const recent = within(card)
      .getByRole('heading', { name: 'Top songs · last 30 days' })
      .closest('section');
    if (!recent) throw new Error('no recent songs');
    const entries = within(recent).getAllByRole('listitem');
    const ranks = entries.map((entry) => within(entry).getByRole('img'));
    expect(ranks.map((rank) => rank.getAttribute('aria-label'))).toEqual([
      'Rank 1, gold medal',
      'Rank 2, silver medal',
      'Rank 3, bronze medal',
      'Rank 4',
    ]);
    expect(ranks.map((rank) => rank.textContent)).toEqual(['1', '2', '3', '#4']);
    // Drawn in CSS, not emoji: a phone without an emoji font shows them too.
    expect(card.textContent).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(ranks.slice(0, 3).map((rank) => rank.className)).toEqual([
      'highlight__rank medal medal--gold',
      'highlight__rank medal medal--silver',
      'highlight__rank medal medal--bronze',
    ]);
    expect(within(entries[0] as HTMLElement).getByRole('link', { name: 'Song 1' })).toHaveAttribute(
      'href',
      '/track/track-1',
    );
    expect(within(entries[0] as HTMLElement).getByText('Artist 1')).toBeInTheDocument();
    expect(within(entries[0] as HTMLElement).getByText('42 plays')).toBeInTheDocument();
    expect(within(entries[3] as HTMLElement).getByText('1 play')).toBeInTheDocument();

    expect(within(card).getByRole('heading', { name: 'Top songs · all time' })).toBeInTheDocument();
    expect(within(card).getByText('400 plays')).toBeInTheDocument();
    const artists = within(card).getByRole('heading', { name: 'Top artists' }).closest('section');
    if (!artists) throw new Error('no top artists');
    expect(within(artists).getByRole('link', { name: 'Kraftwerk' })).toHaveAttribute(
      'href',
      '/artist/artist-a',
    );
    expect(within(artists).getByText('99 plays')).toBeInTheDocument();
  });

  it('shows the taste match and the "✓ Friends" button', async () => {
    profileApi(json(200, ada), json(200, friendProfile));
    renderApp('/user/grace');

    expect(await screen.findByText('87% taste match')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '✓ Friends' })).toBeDisabled();
  });

  it('draws the weekly listening activity with a text summary', async () => {
    profileApi(json(200, ada), json(200, friendProfile));
    renderApp('/user/grace');

    const chart = await screen.findByRole('img', { name: 'Listening activity' });
    expect(chart.tagName.toLowerCase()).toBe('svg');
    expect(chart.querySelectorAll('rect')).toHaveLength(52);
    expect(chart).toHaveAccessibleDescription(
      '630 plays in the last 52 weeks, 12 a week on average. ' +
        'Busiest: the week of Dec 9, 2024, with 120 plays.',
    );
    const bars = [...chart.querySelectorAll('rect')];
    const tallest = bars[40];
    expect(Number(tallest?.getAttribute('height'))).toBeGreaterThan(
      Number(bars[0]?.getAttribute('height')),
    );
    expect(tallest?.querySelector('title')?.textContent).toBe('Week of Dec 9, 2024: 120 plays');
  });

  it("shows the chart's plays axis, and a week's plays on tap or from the keyboard", async () => {
    profileApi(json(200, ada), json(200, friendProfile));
    renderApp('/user/grace');

    const chart = await screen.findByRole('img', { name: 'Listening activity' });
    const figure = chart.closest('figure');
    if (!figure) throw new Error('no chart figure');
    // The plays axis runs from 0 to the busiest week's plays.
    expect(within(figure).getByText('120')).toBeInTheDocument();
    expect(within(figure).getByText('0')).toBeInTheDocument();
    // The latest week until another is picked.
    const weeks = within(figure).getByRole('slider', { name: 'Plays per week' });
    expect(weeks).toHaveAttribute('aria-valuetext', 'Week of Feb 24, 2025: 10 plays');
    expect(
      within(figure).getByText('Week of Feb 24, 2025: 10 plays', { selector: 'p' }),
    ).toBeVisible();

    // A tap (a touch, no hover) on the busiest week's column.
    const busiest = weeks.querySelector('[data-week="2024-12-09"]');
    if (!busiest) throw new Error('no column for the busiest week');
    fireEvent.pointerDown(busiest, { pointerType: 'touch' });
    expect(
      within(figure).getByText('Week of Dec 9, 2024: 120 plays', { selector: 'p' }),
    ).toBeVisible();
    expect(weeks).toHaveAttribute('aria-valuenow', '41');
    expect(chart.querySelectorAll('rect')[40]).toHaveClass('profile-activity__bar--selected');

    // The arrow keys step through the weeks.
    weeks.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(weeks).toHaveAttribute('aria-valuetext', 'Week of Dec 16, 2024: 10 plays');
    await userEvent.keyboard('{Home}');
    expect(weeks).toHaveAttribute('aria-valuetext', 'Week of Mar 4, 2024: 10 plays');
  });

  it('ignores a top song through the ignore API', async () => {
    const fetchMock = profileApi(json(200, ada), json(200, friendProfile), {
      'POST /api/ignore/track/uid-2': json(200, {
        ignored: true,
        reported: false,
        is_global: false,
      }),
    });
    renderApp('/user/grace');

    await userEvent.click(await screen.findByRole('button', { name: 'Ignore Song 2' }));

    expect(await screen.findByRole('button', { name: 'Song 2 ignored' })).toBeDisabled();
    expect(
      fetchMock.mock.calls.filter(([input]) => String(input) === '/api/ignore/track/uid-2'),
    ).toHaveLength(1);
  });

  it('shares the ignored state with the ignore feature', async () => {
    const songOne = activityItem({ id: 'track-1', uid: 'uid-1', title: 'Song 1' });
    const songTwo = activityItem({ id: 'track-2', uid: 'uid-2', title: 'Song 2' });
    let songTwoIgnored = false;
    const fetchMock = profileApi(json(200, ada), json(200, friendProfile), {
      'GET /api/ignore': () => ignoredList(songTwoIgnored ? [songTwo, songOne] : [songOne])(),
      'POST /api/ignore/track/uid-2': () => {
        songTwoIgnored = true;
        return json(200, { ignored: true, reported: false, is_global: false })();
      },
    });
    renderApp('/user/grace');

    expect(await screen.findByRole('button', { name: 'Song 1 ignored' })).toBeDisabled();
    await userEvent.click(await screen.findByRole('button', { name: 'Ignore Song 2' }));

    expect(await screen.findByRole('button', { name: 'Song 2 ignored' })).toBeDisabled();
    expect(requestsTo(fetchMock, '/api/ignore')).toHaveLength(2);
  });

  it('reports a failed ignore as an error notification', async () => {
    profileApi(json(200, ada), json(200, friendProfile), {
      'POST /api/ignore/artist/artist-a': json(500, { detail: 'Ignore store unavailable' }),
    });
    renderApp('/user/grace');

    await userEvent.click(await screen.findByRole('button', { name: 'Ignore Kraftwerk' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to ignore Kraftwerk: Ignore store unavailable',
    );
    expect(screen.getByRole('button', { name: 'Ignore Kraftwerk' })).toBeEnabled();
  });
});

describe('public profile for oneself', () => {
  it('shows the highlights but no friend button', async () => {
    profileApi(
      json(200, { ...ada, username: 'grace' }),
      json(200, { ...friendProfile, friendship: 'self', taste_match: null }),
    );
    renderApp('/user/grace');

    expect(await screen.findByRole('heading', { name: 'Top Highlights' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Listening activity' })).toBeInTheDocument();
    expectNoFriendButton();
  });
});

describe('friend button', () => {
  it.each([
    ['friends', '✓ Friends'],
    ['pending_outgoing', 'Request sent'],
    ['pending_incoming', 'Respond pending'],
    ['none', 'Add friend'],
  ] as const)('reads "%s" as "%s"', async (friendship, text) => {
    profileApi(json(200, ada), json(200, graceProfile({ friendship })));
    renderApp('/user/grace');

    expect(await screen.findByRole('button', { name: text })).toBeInTheDocument();
    for (const other of FRIEND_BUTTON_TEXTS.filter((candidate) => candidate !== text)) {
      expect(screen.queryByRole('button', { name: other })).not.toBeInTheDocument();
    }
  });

  it('points an incoming request to the notifications', async () => {
    profileApi(json(200, ada), json(200, graceProfile({ friendship: 'pending_incoming' })));
    renderApp('/user/grace');

    expect(
      await screen.findByRole('button', { name: 'Respond pending' }),
    ).toHaveAccessibleDescription('Respond from the notifications.');
  });

  it('sends a request with "Add friend", then reads "Request sent"', async () => {
    let requested = false;
    const fetchMock = profileApi(
      json(200, ada),
      () => json(200, graceProfile({ friendship: requested ? 'pending_outgoing' : 'none' }))(),
      {
        'POST /api/friendship/request/grace': () => {
          requested = true;
          return json(200, { status: 'pending_outgoing' })();
        },
        'GET /api/friendship/status/grace': () =>
          json(200, { status: requested ? 'pending_outgoing' : 'none' })(),
      },
    );
    renderApp('/user/grace');

    await userEvent.click(await screen.findByRole('button', { name: 'Add friend' }));

    expect(await screen.findByRole('button', { name: 'Request sent' })).toBeDisabled();
    expect(
      fetchMock.mock.calls.filter(
        ([input, init]) =>
          String(input) === '/api/friendship/request/grace' && init?.method === 'POST',
      ),
    ).toHaveLength(1);
  });
});

describe('public profile errors', () => {
  it('says "Profile not found" on a 404', async () => {
    const fetchMock = profileApi(json(200, ada), json(404, { detail: 'Profile not found' }));
    renderApp('/user/grace');

    expect(await screen.findByRole('heading', { name: 'Profile not found' })).toBeInTheDocument();
    expect(document.title).toBe('Profile not found - Earshot');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    // The route's loader asked as the navigation started; the page did not ask again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestedUrls(fetchMock).filter((url) => url === '/api/user/grace/public')).toHaveLength(
      1,
    );
  });

  it('says "Failed to load profile" on other failures, and Retry loads it again', async () => {
    let failing = true;
    profileApi(json(200, ada), () =>
      failing ? json(503, { detail: 'Database unavailable' })() : json(200, graceProfile())(),
    );
    renderApp('/user/grace');

    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(
      within(alert).getByRole('heading', { name: 'Failed to load profile' }),
    ).toBeInTheDocument();
    expect(alert).toHaveTextContent('Database unavailable');

    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByText('Failed to load profile')).not.toBeInTheDocument(),
    );
  }, 10_000);
});
