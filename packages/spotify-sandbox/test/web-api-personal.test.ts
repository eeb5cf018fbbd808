import { describe, expect, it } from 'vitest';
import {
  API_BASE,
  apiError,
  PREMIUM_ACCOUNT,
  TEST_START,
  testSandbox,
  type Json,
} from './support/web-api';
import { localFileUri, type LocalFile } from '../src/world/model';
import { createWorld } from '../src/world/world';
import { world } from './support/world-fixtures';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const playedAtMs = (item: Json) => Date.parse(item.played_at);

describe('GET /v1/me/player/recently-played', () => {
  it('answers the last plays of 30 s or more, newest first, with cursors', async () => {
    const user = await (await testSandbox()).user();
    const expected = world.recentPlays(PREMIUM_ACCOUNT, TEST_START + 1, 20);

    const page = await user.ok('/me/player/recently-played');

    expect(page.items.map((item: Json) => [item.track.id, playedAtMs(item)])).toEqual(
      expected.map((play) => [play.trackId, play.playedAt]),
    );
    const newest = String(expected[0]?.playedAt);
    const oldest = String(expected.at(-1)?.playedAt);
    expect(page).toMatchObject({
      limit: 20,
      href: `${API_BASE}/me/player/recently-played?limit=20`,
      cursors: { after: newest, before: oldest },
      next: `${API_BASE}/me/player/recently-played?before=${oldest}&limit=20`,
    });
    expect(page.items[0].played_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const withContext = page.items.find((item: Json) => item.context !== null);
    expect(withContext?.context).toEqual({
      type: expect.stringMatching(/^(album|playlist|artist)$/),
      href: expect.stringMatching(new RegExp(`^${API_BASE}/(albums|playlists|artists)/`)),
      external_urls: { spotify: expect.stringMatching(/^https:\/\/open\.spotify\.com\//) },
      uri: expect.stringMatching(/^spotify:(album|playlist|artist):/),
    });
    for (const play of expected) expect(play.msPlayed).toBeGreaterThanOrEqual(30_000);
  });

  it('pages back with before, and no further than the last 50 plays', async () => {
    const user = await (await testSandbox()).user();
    const last50 = world.recentPlays(PREMIUM_ACCOUNT, TEST_START + 1, 50);

    const seen: number[] = [];
    let url: string | null = '/me/player/recently-played?limit=15';
    let pages = 0;
    while (url) {
      const page: Json = await user.ok(url);
      seen.push(...page.items.map(playedAtMs));
      url = page.next ? String(page.next).slice(API_BASE.length) : null;
      pages += 1;
    }

    expect(pages).toBe(4);
    expect(seen).toEqual(last50.map((play) => play.playedAt));
    const beyond = await user.ok(`/me/player/recently-played?before=${last50.at(-1)?.playedAt}`);
    expect(beyond.items).toEqual([]);
    expect(beyond.cursors).toBeNull();
    expect(beyond.next).toBeNull();
  });

  it('answers the plays after a cursor, exclusive, newest first', async () => {
    const user = await (await testSandbox()).user();
    const recent = world.recentPlays(PREMIUM_ACCOUNT, TEST_START + 1, 50);
    const cursor = recent[5]?.playedAt ?? 0;

    const page = await user.ok(`/me/player/recently-played?after=${cursor}`);

    expect(page.items.map(playedAtMs)).toEqual(recent.slice(0, 5).map((play) => play.playedAt));
    expect(page.next).toBeNull();
    expect(page.href).toBe(`${API_BASE}/me/player/recently-played?after=${cursor}&limit=20`);

    const oldestTwo = await user.ok(`/me/player/recently-played?after=${cursor}&limit=2`);
    expect(oldestTwo.items.map(playedAtMs)).toEqual([recent[3]?.playedAt, recent[4]?.playedAt]);
    expect(oldestTwo.next).toBe(
      `${API_BASE}/me/player/recently-played?after=${recent[3]?.playedAt}&limit=2`,
    );
  });

  it('links a next page from every full page after a cursor, even when nothing is newer', async () => {
    const user = await (await testSandbox()).user();
    const recent = world.recentPlays(PREMIUM_ACCOUNT, TEST_START + 1, 50);
    const newest = recent[0]?.playedAt;

    const window = await user.ok('/me/player/recently-played?after=0&limit=50');
    expect(window.items).toHaveLength(50);
    expect(window.next).toBe(`${API_BASE}/me/player/recently-played?after=${newest}&limit=50`);
    const cursor = recent[5]?.playedAt;
    const five = await user.ok(`/me/player/recently-played?after=${cursor}&limit=5`);
    expect(five.items.map(playedAtMs)).toEqual(recent.slice(0, 5).map((play) => play.playedAt));
    expect(five.next).toBe(`${API_BASE}/me/player/recently-played?after=${newest}&limit=5`);

    const beyond = await user.ok(String(five.next).slice(API_BASE.length));
    expect(beyond).toMatchObject({ items: [], next: null, cursors: null });
  });

  it('shows plays heard within a context and plays heard outside any', async () => {
    const user = await (await testSandbox()).user();
    const recent = world.recentPlays(PREMIUM_ACCOUNT, TEST_START + 1, 50);
    const page = await user.ok('/me/player/recently-played?limit=50');

    expect(page.items.map((item: Json) => item.context?.uri ?? null)).toEqual(
      recent.map((play) => play.context?.uri ?? null),
    );
    expect(recent.some((play) => play.context === null)).toBe(true);
    expect(recent.some((play) => play.context !== null)).toBe(true);
  });

  it('shows a local file as Spotify does: is_local, no id, its tags, never ranked', async () => {
    const own = createWorld();
    const sandbox = await testSandbox(TEST_START, own);
    const file: LocalFile = {
      artist: 'Nils Frahm',
      album: 'Home Demos',
      title: 'Says - take 2',
      durationMs: 184_400,
    };
    const uri = localFileUri(file);
    expect(uri).toBe('spotify:local:Nils+Frahm:Home+Demos:Says+-+take+2:184');
    own.recordPlay({
      accountId: PREMIUM_ACCOUNT,
      trackId: uri,
      localFile: file,
      playedAt: TEST_START - 60_000,
      msPlayed: 120_000,
      context: null,
      shuffle: false,
      device: 'computer',
    });

    const extended = await (await sandbox.user()).ok('/me/player/recently-played?limit=5');
    const local = extended.items.find((item: Json) => item.track.is_local);
    expect(local).toEqual({
      played_at: new Date(TEST_START - 60_000).toISOString(),
      context: null,
      track: {
        album: {
          album_type: null,
          artists: [],
          available_markets: [],
          external_urls: {},
          href: null,
          id: null,
          images: [],
          name: 'Home Demos',
          release_date: null,
          release_date_precision: null,
          type: 'album',
          uri: null,
        },
        artists: [
          {
            external_urls: {},
            href: null,
            id: null,
            name: 'Nils Frahm',
            type: 'artist',
            uri: null,
          },
        ],
        available_markets: [],
        disc_number: 0,
        duration_ms: 184_400,
        explicit: false,
        external_ids: {},
        external_urls: {},
        href: null,
        id: null,
        is_local: true,
        name: 'Says - take 2',
        popularity: 0,
        preview_url: null,
        track_number: 0,
        type: 'track',
        uri,
      },
    });
    const development = await sandbox.user({ mode: 'development' });
    const page = await development.ok('/me/player/recently-played?limit=5');
    const developmentLocal = page.items.find((item: Json) => item.track.is_local);
    expect(developmentLocal.track).not.toHaveProperty('popularity');
    expect(developmentLocal.track).not.toHaveProperty('available_markets');
    expect(developmentLocal.track.id).toBeNull();

    const top = await development.ok('/me/top/tracks?time_range=short_term&limit=50');
    expect(top.items.length).toBeGreaterThan(0);
    for (const track of top.items) expect(track.is_local).toBe(false);
  });

  it('refuses a local file play without its spotify:local: URI', () => {
    const own = createWorld();
    const file: LocalFile = { artist: 'A', album: 'B', title: 'C', durationMs: 60_000 };
    expect(() =>
      own.recordPlay({
        accountId: PREMIUM_ACCOUNT,
        trackId: own.tracks[0]!.id,
        localFile: file,
        playedAt: TEST_START - 60_000,
        msPlayed: 60_000,
        context: null,
        shuffle: false,
        device: 'computer',
      }),
    ).toThrow(RangeError);
  });

  it('shows new plays as the clock advances', async () => {
    const sandbox = await testSandbox();
    const user = await sandbox.user();
    const before = await user.ok('/me/player/recently-played?limit=1');
    const newest = Number(before.cursors.after);

    sandbox.clock.advance(6 * HOUR);
    const later = world.recentPlays(PREMIUM_ACCOUNT, TEST_START + 6 * HOUR + 1, 50);
    const fresh = later.filter((play) => play.playedAt > newest);
    expect(fresh.length).toBeGreaterThan(0);

    // The first token has expired by now: connect again, as a poller refreshes.
    const again = await sandbox.user();
    const page = await again.ok(`/me/player/recently-played?after=${newest}&limit=50`);
    expect(page.items.map(playedAtMs)).toEqual(fresh.map((play) => play.playedAt));
    expect(Math.max(...page.items.map(playedAtMs))).toBeLessThanOrEqual(TEST_START + 6 * HOUR);
  });

  it('refuses both cursors, bad cursors and bad limits, and needs its scope', async () => {
    const sandbox = await testSandbox();
    const user = await sandbox.user();

    expect((await user.get('/me/player/recently-played?after=1&before=2')).body).toEqual(
      apiError(400, "Only one of 'after' and 'before' can be specified"),
    );
    expect((await user.get('/me/player/recently-played?after=yesterday')).status).toBe(400);
    expect((await user.get('/me/player/recently-played?limit=51')).status).toBe(400);
    expect((await user.get('/me/player/recently-played?limit=50')).status).toBe(200);
    const unscoped = await sandbox.user({ scope: 'user-top-read' });
    expect((await unscoped.get('/me/player/recently-played')).body).toEqual(
      apiError(403, 'Insufficient client scope'),
    );
  });
});

describe('GET /v1/me/top/{artists,tracks}', () => {
  /** Plays of 30 s or more per track in the last `days`, as the sandbox counts them. */
  function playCounts(days: number) {
    const counts = new Map<string, number>();
    for (const play of world.playsBetween(PREMIUM_ACCOUNT, TEST_START - days * DAY, TEST_START)) {
      if (play.msPlayed >= 30_000) counts.set(play.trackId, (counts.get(play.trackId) ?? 0) + 1);
    }
    return counts;
  }

  it('ranks tracks by plays over the time range', async () => {
    const user = await (await testSandbox()).user();

    for (const [range, days] of [
      ['short_term', 28],
      ['medium_term', 182],
      ['long_term', 365],
    ] as const) {
      const counts = playCounts(days);
      const page = await user.ok(`/me/top/tracks?time_range=${range}&limit=10`);
      const shown = page.items.map((item: Json) => counts.get(item.id) ?? 0);
      expect(shown).toEqual([...shown].sort((a, b) => b - a));
      expect(shown[0]).toBe(Math.max(...counts.values()));
      expect(page.total).toBe(counts.size);
      expect(page.href).toBe(`${API_BASE}/me/top/tracks?time_range=${range}&offset=0&limit=10`);
    }
    const medium = await user.ok('/me/top/tracks');
    expect(medium.limit).toBe(20);
    expect(medium.total).toBe(playCounts(182).size);
  });

  it('ranks artists, main artists counting most, and pages them', async () => {
    const user = await (await testSandbox()).user();

    const first = await user.ok('/me/top/artists?time_range=short_term&limit=5');
    const second = await user.ok('/me/top/artists?time_range=short_term&limit=5&offset=5');

    expect(first.items).toHaveLength(5);
    expect(first.next).toBe(`${API_BASE}/me/top/artists?time_range=short_term&offset=5&limit=5`);
    expect(second.previous).toBe(
      `${API_BASE}/me/top/artists?time_range=short_term&offset=0&limit=5`,
    );
    const ids = [...first.items, ...second.items].map((item: Json) => item.id);
    expect(new Set(ids).size).toBe(10);
    const counts = playCounts(28);
    const plays = (artistId: string) =>
      [...counts].reduce((sum, [trackId, count]) => {
        const artists = world.track(trackId)?.artistIds ?? [];
        const position = artists.indexOf(artistId);
        return sum + (position < 0 ? 0 : position === 0 ? count : count / 2);
      }, 0);
    const weights = ids.map(plays);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    expect(first.items[0]).toHaveProperty('genres');
  });

  it('refuses an unknown time range and needs user-top-read', async () => {
    const sandbox = await testSandbox();
    const user = await sandbox.user();

    expect((await user.get('/me/top/artists?time_range=all_time')).body).toEqual(
      apiError(400, 'Invalid time range'),
    );
    const unscoped = await sandbox.user({ scope: 'user-read-recently-played' });
    expect((await unscoped.get('/me/top/tracks')).body).toEqual(
      apiError(403, 'Insufficient client scope'),
    );
  });

  it('leaves out popularity in Development Mode', async () => {
    const user = await (await testSandbox()).user({ mode: 'development' });

    const tracks = await user.ok('/me/top/tracks?limit=1');
    const artists = await user.ok('/me/top/artists?limit=1');

    expect(tracks.items[0]).not.toHaveProperty('popularity');
    expect(artists.items[0]).not.toHaveProperty('popularity');
    expect(artists.items[0]).not.toHaveProperty('genres');
  });
});
