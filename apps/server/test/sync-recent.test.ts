import { randomUUID } from 'node:crypto';
import { SandboxClock } from '@earshot/spotify-sandbox/clock';
import { localFileUri, type LocalFile } from '@earshot/spotify-sandbox/world/model';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImportStatus } from '@earshot/contract/import';
import { tracks } from '../src/db/schema/catalog';
import { plays } from '../src/db/schema/listening';
import { spotifyAccounts } from '../src/db/schema/spotify-accounts';
import { tokenSourceFor } from '../src/services/spotify-tokens';
import { MAX_INTERVAL_SEC, RECENT_WINDOW, syncRecentPlays } from '../src/services/sync-recent';
import { startHarness, type Harness } from './support/harness';

/**
 * One recently-played poll at a time, against a sandbox whose clock each test puts where it needs
 * it. Every test connects its own account, so the tests hold in any order.
 */
const world = createWorld();
const clock = new SandboxClock({ frozen: true });
/** An evening: every account below has listened to 50 plays and more by then. */
const BASE = Date.parse('2026-11-20T20:00:00Z');
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ sandbox: { world, clock } });
});
afterAll(() => harness.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** The plays recently-played can show (30 s or more) that ended in (from, to], oldest first. */
const streamsBetween = (accountId: string, from: number, to: number) =>
  world.playsBetween(accountId, from, to).filter((play) => play.msPlayed >= 30_000);

async function connect(accountId: string) {
  clock.set(BASE);
  const { id: userId, cookie } = await harness.signIn(accountId);
  const auth = tokenSourceFor(harness.database.db, harness.cipher, harness.spotify, userId);
  const sync = () => syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
  /** What the import page is told of a possible gap. */
  const gapShown = async () =>
    (
      await harness.app.inject({ url: '/api/spotify/import', headers: { cookie } })
    ).json<ImportStatus>().recent_plays_gap_at;
  return { userId, sync, gapShown };
}

async function accountOf(userId: string) {
  const [account] = await harness.database.db
    .select()
    .from(spotifyAccounts)
    .where(eq(spotifyAccounts.userId, userId));
  return account!;
}

async function storedPlays(userId: string) {
  return harness.database.db
    .select({
      at: plays.playedAt,
      trackId: plays.trackId,
      contextUri: plays.contextUri,
      source: plays.source,
      msPlayed: plays.msPlayed,
    })
    .from(plays)
    .where(eq(plays.userId, userId))
    .orderBy(asc(plays.playedAt));
}

/** The `after` each call to Spotify's recently-played asked for, and the `next` links followed. */
function watchRecentlyPlayed() {
  const spy = vi.spyOn(harness.spotify, 'recentlyPlayed');
  return {
    afters: () => spy.mock.calls.map(([, after]) => after),
    nexts: () => spy.mock.calls.map(([, , next]) => next),
  };
}

describe('the first poll of an account', () => {
  it('stores the whole window with contexts, without a gap, and keeps the newest play as the cursor', async () => {
    const account = 'maralindqvist';
    const { userId, sync } = await connect(account);
    const calls = watchRecentlyPlayed();
    const window = world.recentPlays(account, BASE + 1, RECENT_WINDOW);

    const result = await sync();

    expect(result).toMatchObject({ fetched: 50, stored: 50, possibleGap: false });
    expect(calls.afters()).toEqual([undefined]);
    expect(await storedPlays(userId)).toEqual(
      [...window].reverse().map((play) => ({
        at: new Date(play.playedAt),
        trackId: play.trackId,
        contextUri: play.context?.uri ?? null,
        // Polled plays say where they came from; Spotify does not tell how long they lasted.
        source: 'api',
        msPlayed: null,
      })),
    );
    // Their tracks are in the catalogue, which the feed reads them from.
    const windowTracks = [...new Set(window.map((play) => play.trackId))].sort();
    const catalogued = await harness.database.db
      .select({ id: tracks.id })
      .from(tracks)
      .where(inArray(tracks.id, windowTracks));
    expect(catalogued.map((track) => track.id).sort()).toEqual(windowTracks);
    // Both kinds are in the window: plays from an album, playlist or artist, and plays outside any.
    expect(window.some((play) => play.context === null)).toBe(true);
    expect(window.some((play) => play.context !== null)).toBe(true);
    const stored = await accountOf(userId);
    expect(stored.recentCursorMs).toBe(window[0]!.playedAt);
    expect(stored.trackingSince).not.toBeNull();
    expect(stored.recentSyncedAt).not.toBeNull();
    expect(stored.recentIntervalSec).toBe(result.intervalSec);
  });

  it('stores nothing and keeps no cursor for an account that has not played yet', async () => {
    const account = 'sofiamtz';
    const { userId, sync } = await connect(account);
    const created = world.account(account)!.createdAt;
    clock.set(created + 1);
    expect(world.recentPlays(account, created + 2, RECENT_WINDOW)).toEqual([]);

    const result = await sync();

    expect(result).toMatchObject({ fetched: 0, stored: 0, possibleGap: false });
    expect((await accountOf(userId)).recentCursorMs).toBeNull();
  });
});

describe('later polls', () => {
  it('ask after the cursor, store only the new plays and move the cursor to the newest', async () => {
    const account = 'jonasbrandt';
    const { userId, sync } = await connect(account);
    await sync();
    const cursor = (await accountOf(userId)).recentCursorMs!;
    const calls = watchRecentlyPlayed();

    clock.set(BASE + 3 * 3600_000);
    const fresh = streamsBetween(account, cursor, clock.now());
    expect(fresh.length).toBeGreaterThan(1);
    expect(fresh.length).toBeLessThan(RECENT_WINDOW);
    const result = await sync();

    expect(calls.afters()).toEqual([cursor]);
    expect(result).toMatchObject({
      fetched: fresh.length,
      stored: fresh.length,
      possibleGap: false,
    });
    expect((await accountOf(userId)).recentCursorMs).toBe(fresh.at(-1)!.playedAt);
    const stored = (await storedPlays(userId)).map((play) => play.at.getTime());
    expect(stored.slice(-fresh.length)).toEqual(fresh.map((play) => play.playedAt));
  });

  it('keep the cursor and back off from the stored interval while nothing is played', async () => {
    const account = 'ethanbrooks';
    const { userId, sync } = await connect(account);
    const first = await sync();
    const cursor = (await accountOf(userId)).recentCursorMs;

    const idle = await sync();
    const idler = await sync();

    expect(idle).toMatchObject({ fetched: 0, stored: 0, possibleGap: false });
    expect(idle.intervalSec).toBe(Math.min(MAX_INTERVAL_SEC, Math.round(first.intervalSec * 1.5)));
    expect(idler.intervalSec).toBe(Math.min(MAX_INTERVAL_SEC, Math.round(idle.intervalSec * 1.5)));
    expect((await accountOf(userId)).recentCursorMs).toBe(cursor);
  });

  it('are due again after the interval, within its ±10 % jitter, never in the past', async () => {
    const { userId, sync } = await connect('camilledubois');
    for (const [random, factor] of [
      [0, 0.9],
      [0.5, 1],
      [0.999_999, 1.1],
    ] as const) {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      const before = Date.now();
      const result = await sync();
      const after = Date.now();
      const dueInMs = result.intervalSec * 1000 * factor;
      expect(result.nextDueAt.getTime()).toBeGreaterThanOrEqual(before + dueInMs - 1);
      expect(result.nextDueAt.getTime()).toBeLessThanOrEqual(after + dueInMs + 1);
      expect((await accountOf(userId)).recentDueAt).toEqual(result.nextDueAt);
      vi.restoreAllMocks();
    }
  });
});

describe('a heavy listener', () => {
  it('is not told of a gap with 49 new plays, and is with 50: the window may have overflowed', async () => {
    const account = '31pd8vnx2kq6wzr4tyc7mhjb5gfe';
    const { userId, sync, gapShown } = await connect(account);
    await sync();
    const cursor = (await accountOf(userId)).recentCursorMs!;
    const ahead = streamsBetween(account, cursor, cursor + 7 * 86_400_000);

    // 49 plays after the cursor: every one of them is still in the window.
    clock.set(ahead[48]!.playedAt);
    const calls = watchRecentlyPlayed();
    const fits = await sync();
    expect(fits).toMatchObject({ fetched: 49, stored: 49, possibleGap: false });
    expect(calls.nexts()).toEqual([undefined]);
    expect(await gapShown()).toBeNull();

    // 50 more: the window is full, older plays may have fallen out of it unseen. Spotify links a
    // next page from the full page; it is followed (and found empty).
    clock.set(ahead[98]!.playedAt);
    const polledAt = Date.now();
    const full = await sync();
    expect(full).toMatchObject({ fetched: 50, stored: 50, possibleGap: true });
    // The user is told, on the import page, from when plays may be missing.
    const shown = Date.parse((await gapShown())!);
    expect(shown).toBeGreaterThanOrEqual(polledAt);
    expect(shown).toBeLessThanOrEqual(Date.now());
    expect(calls.afters().slice(1)).toEqual([ahead[48]!.playedAt, ahead[48]!.playedAt]);
    expect(calls.nexts()[2]).toMatch(/\/me\/player\/recently-played\?after=\d+&limit=50$/);
    expect((await accountOf(userId)).recentCursorMs).toBe(ahead[98]!.playedAt);
    // A later poll that keeps up does not make the missing plays any less missing.
    expect(await sync()).toMatchObject({ possibleGap: false });
    expect(Date.parse((await gapShown())!)).toBe(shown);
    expect((await storedPlays(userId)).map((play) => play.at.getTime())).toEqual(
      expect.arrayContaining(ahead.slice(0, 99).map((play) => play.playedAt)),
    );
  });
});

describe('a recently-played that keeps linking next pages', () => {
  /** Spotify's real answers, each given a `next` link back to itself. */
  function linkEveryPageToItself(emptyPages: boolean) {
    const real = harness.spotify.recentlyPlayed.bind(harness.spotify);
    return vi
      .spyOn(harness.spotify, 'recentlyPlayed')
      .mockImplementation(async (auth, after, next) => {
        const page = await real(auth, after, next);
        const items = emptyPages && next !== undefined ? [] : page.items;
        return {
          ...page,
          items,
          next: next ?? `${harness.sandboxUrl}/v1/me/player/recently-played?after=${after}`,
        };
      });
  }

  it('follows at most four pages, however many Spotify links', async () => {
    const { userId, sync } = await connect('rafasouza');
    await sync();
    const cursor = (await accountOf(userId)).recentCursorMs!;
    const ahead = streamsBetween('rafasouza', cursor, cursor + 7 * 86_400_000);
    clock.set(ahead[9]!.playedAt);
    const calls = linkEveryPageToItself(false);

    expect(await sync()).toMatchObject({ fetched: 40, stored: 10 });
    expect(calls).toHaveBeenCalledTimes(4);
  });

  it('stops at an empty page even when it links another', async () => {
    const { userId, sync } = await connect('31xt5bgq9rwn3yk7dzf2cjv6hpam');
    await sync();
    const cursor = (await accountOf(userId)).recentCursorMs!;
    const ahead = streamsBetween('31xt5bgq9rwn3yk7dzf2cjv6hpam', cursor, cursor + 7 * 86_400_000);
    clock.set(ahead[4]!.playedAt);
    const calls = linkEveryPageToItself(true);

    expect(await sync()).toMatchObject({ fetched: 5, stored: 5 });
    expect(calls).toHaveBeenCalledTimes(2);
  });
});

describe('what recently-played shows but Earshot cannot keep', () => {
  it('skips a local file (no track id) and stores the rest of the window', async () => {
    const account = 'chidiokafor';
    const file: LocalFile = {
      artist: 'Chidi Okafor',
      album: 'Voice Memos',
      title: 'Demo in E',
      durationMs: 95_000,
    };
    world.recordPlay({
      accountId: account,
      trackId: localFileUri(file),
      localFile: file,
      playedAt: BASE - 60_000,
      msPlayed: 95_000,
      context: null,
      shuffle: false,
      device: 'computer',
    });
    const { userId, sync } = await connect(account);
    const window = world.recentPlays(account, BASE + 1, RECENT_WINDOW);
    expect(window[0]!.localFile).toEqual(file);

    const result = await sync();

    expect(result).toMatchObject({ fetched: 50, stored: 49 });
    const stored = await storedPlays(userId);
    expect(stored.map((play) => play.at.getTime())).toEqual(
      window
        .slice(1)
        .map((play) => play.playedAt)
        .reverse(),
    );
    // The local file is the newest play: the cursor moves past it, so it is not asked for again.
    expect((await accountOf(userId)).recentCursorMs).toBe(window[0]!.playedAt);
  });
});

it('refuses a user without a Spotify connection', async () => {
  const auth = tokenSourceFor(harness.database.db, harness.cipher, harness.spotify, randomUUID());
  await expect(
    syncRecentPlays(harness.database.db, harness.spotify, auth, randomUUID()),
  ).rejects.toThrow(/No Spotify account/);
});
