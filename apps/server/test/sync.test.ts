import { SandboxClock } from '@earshot/spotify-sandbox/clock';
import type { World } from '@earshot/spotify-sandbox/world/model';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser } from '@earshot/contract/user';
import { artists, tracks } from '../src/db/schema/catalog';
import { followedArtists, savedTracks, userPlaylists } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { spotifyAccounts } from '../src/db/schema/spotify-accounts';
import { startJobRunner } from '../src/jobs/runner';
import { createMetrics } from '../src/observability/metrics';
import { importSettings } from '../src/services/import/upload';
import { enrichArtists, enrichTracks } from '../src/services/enrich-catalog';
import { PlayColumns, storeImportedPlays } from '../src/services/import/store';
import { trackSummaries } from '../src/services/tracks';
import { SpotifyDisconnectedError, tokenSourceFor } from '../src/services/spotify-tokens';
import { syncLibrary } from '../src/services/sync-library';
import { syncRecentPlays } from '../src/services/sync-recent';
import {
  SYNC_RUNNING_LEASE_SEC,
  renewRunningLease,
  startRunningLease,
} from '../src/services/spotify-accounts';
import { SpotifyError, SpotifyRateLimitedError } from '../src/spotify/errors';
import { startHarness, type Harness } from './support/harness';

const MARA = 'maralindqvist';
const world: World = createWorld();

/** The plays Spotify's recently-played can show (30 s or more) that ended in (from, to]. */
const worldPlays = (accountId: string, from: number, to: number) =>
  world
    .playsBetween(accountId, from, to)
    .filter((play) => play.msPlayed >= 30_000)
    .map((play) => play.playedAt);

async function storedPlays(harness: Harness, userId: string): Promise<number[]> {
  const rows = await harness.database.db
    .select({ at: plays.playedAt })
    .from(plays)
    .where(eq(plays.userId, userId));
  return rows.map((row) => row.at.getTime()).sort((a, b) => a - b);
}

async function connect(harness: Harness, accountId: string) {
  const { cookie } = await harness.login(accountId);
  const me = await harness.app.inject({ url: '/api/user/me', headers: { cookie } });
  const userId = me.json<CurrentUser>().id;
  const auth = tokenSourceFor(harness.database.db, harness.cipher, harness.spotify, userId);
  return { cookie, userId, auth };
}

describe('recent plays, against a sandbox whose clock the test moves', () => {
  let harness: Harness;
  const clock = new SandboxClock({ frozen: true });
  beforeAll(async () => {
    harness = await startHarness({ sandbox: { world, clock } });
  });
  afterAll(() => harness.close());

  it('captures every play exactly once across overlapping polls, restarts and hours', async () => {
    const { userId, auth } = await connect(harness, MARA);
    const start = clock.now();
    const [first, second] = await Promise.all([
      syncRecentPlays(harness.database.db, harness.spotify, auth, userId),
      syncRecentPlays(harness.database.db, harness.spotify, auth, userId),
    ]);
    expect(first.fetched).toBe(50);
    expect(first.stored + second.stored).toBe(50);
    const window = world.recentPlays(MARA, start + 1, 50).map((play) => play.playedAt);
    expect(await storedPlays(harness, userId)).toEqual([...window].sort((a, b) => a - b));

    // Eight hours on the adaptive schedule; halfway, a "restart": a fresh token source.
    let source = auth;
    for (let polls = 0; clock.now() < start + 8 * 3600_000; polls++) {
      const result = await syncRecentPlays(harness.database.db, harness.spotify, source, userId);
      expect(result.possibleGap).toBe(false);
      clock.advance(result.intervalSec * 1100);
      if (polls === 3)
        source = tokenSourceFor(harness.database.db, harness.cipher, harness.spotify, userId);
    }
    await syncRecentPlays(harness.database.db, harness.spotify, source, userId);
    const expected = [...window, ...worldPlays(MARA, start, clock.now())];
    expect(await storedPlays(harness, userId)).toEqual(
      [...new Set(expected)].sort((a, b) => a - b),
    );
    const [account] = await harness.database.db
      .select()
      .from(spotifyAccounts)
      .where(eq(spotifyAccounts.userId, userId));
    expect(account?.trackingSince).not.toBeNull();
  });

  it('keeps up with a heavy listener playing short tracks back to back for hours', async () => {
    const account = 'chidiokafor';
    const { userId, auth } = await connect(harness, account);
    await syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
    const shortest = [...world.tracks]
      .filter((track) => track.durationMs >= 35_000)
      .sort((a, b) => a.durationMs - b.durationMs)
      .slice(0, 300);
    const token = await auth.accessToken();
    const play = await fetch(`${harness.sandboxUrl}/v1/me/player/play`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ uris: shortest.map((track) => `spotify:track:${track.id}`) }),
    });
    if (play.status === 404) {
      const devices = await fetch(`${harness.sandboxUrl}/v1/me/player/devices`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const { devices: list } = (await devices.json()) as { devices: { id: string }[] };
      const [device] = list;
      const retry = await fetch(`${harness.sandboxUrl}/v1/me/player/play?device_id=${device!.id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ uris: shortest.map((track) => `spotify:track:${track.id}`) }),
      });
      expect(retry.status).toBeLessThan(300);
    } else {
      expect(play.status).toBeLessThan(300);
    }
    const start = clock.now();
    const polls: { fetched: number; possibleGap: boolean; intervalSec: number }[] = [];
    while (clock.now() < start + 4 * 3600_000) {
      const result = await syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
      polls.push(result);
      clock.advance(result.intervalSec * 1100);
    }
    await syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
    const heard = worldPlays(account, start, clock.now());
    expect(heard.length).toBeGreaterThan(100);
    // Earshot cannot know a marathon began: the first poll that sees it may follow an idle
    // spell's long interval and find the window overrun. It says so, and keeps up from then on.
    // (The poll at the start can only see what was played before it.)
    const firstSeen = polls.findIndex((poll, index) => index > 0 && poll.fetched > 0);
    expect(polls.slice(firstSeen + 1).filter((poll) => poll.possibleGap)).toEqual([]);
    const stored = new Set(await storedPlays(harness, userId));
    const missed = heard.filter((at) => !stored.has(at));
    // A full window is reported as a possible gap, whether or not plays were really lost.
    expect(missed.length === 0 || polls[firstSeen]!.possibleGap).toBe(true);
    const keptFrom = Math.min(...heard.filter((at) => stored.has(at)));
    expect(missed.filter((at) => at > keptFrom)).toEqual([]);
    // Polled more often than an ordinary listener's hour: half the window at this pace.
    const longest = Math.max(...shortest.map((track) => track.durationMs));
    const intervals = polls.slice(firstSeen).map((poll) => poll.intervalSec);
    expect(Math.max(...intervals)).toBeLessThanOrEqual((25 * longest) / 1000);
  });
});

describe('Spotify failures lose nothing', () => {
  let harness: Harness;
  const clock = new SandboxClock({ frozen: true });
  beforeAll(async () => {
    harness = await startHarness({ sandbox: { world, clock }, http: { timeoutMs: 300 } });
  });
  afterAll(() => harness.close());
  const faults = (rules: unknown[]) => harness.control('PUT', '/faults', { seed: 1, rules });
  const recentPath = '/v1/me/player/recently-played';

  it('retries through a 5xx burst, reports a 5xx storm, and recovers after it', async () => {
    const { userId, auth } = await connect(harness, 'jonasbrandt');
    expect((await faults([{ type: 'server-error', every: 2, path: recentPath }])).status).toBe(200);
    await syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
    clock.advance(3 * 3600_000);
    expect((await faults([{ type: 'server-error', rate: 1, path: recentPath }])).status).toBe(200);
    await expect(
      syncRecentPlays(harness.database.db, harness.spotify, auth, userId),
    ).rejects.toBeInstanceOf(SpotifyError);
    await harness.control('DELETE', '/faults');
    await syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
    const stored = new Set(await storedPlays(harness, userId));
    const since = world.recentPlays('jonasbrandt', clock.now() + 1, 50).map((p) => p.playedAt);
    expect(since.filter((at) => !stored.has(at))).toEqual([]);
  });

  it('waits out a short 429 and parks on a long one', async () => {
    const { userId, auth } = await connect(harness, '31kzt4wq7yv2jhd6ncx3bfrm5lpa');
    await faults([{ type: 'rate-limit', every: 2, retryAfterSec: 1, path: recentPath }]);
    await syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
    await syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
    await faults([{ type: 'rate-limit', rate: 1, retryAfterSec: 7200, path: '/v1/me/tracks' }]);
    const error = await syncLibrary(harness.database.db, harness.spotify, auth, userId).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SpotifyRateLimitedError);
    expect((error as SpotifyRateLimitedError).retryAfterSec).toBe(7200);
    // Other calls go on while that endpoint waits.
    await harness.control('DELETE', '/faults');
    await expect(
      syncRecentPlays(harness.database.db, harness.spotify, auth, userId),
    ).resolves.toMatchObject({ possibleGap: false });
  });

  it('times out on a Spotify that does not answer, and recovers', async () => {
    const { userId, auth } = await connect(harness, '11183207465');
    await faults([{ type: 'latency', ms: 1000, path: recentPath }]);
    await expect(
      syncRecentPlays(harness.database.db, harness.spotify, auth, userId),
    ).rejects.toThrow('Spotify did not answer in time');
    await harness.control('DELETE', '/faults');
    expect(
      (await syncRecentPlays(harness.database.db, harness.spotify, auth, userId)).fetched,
    ).toBe(50);
  });

  it('marks a revoked connection inactive instead of retrying for ever, until reconnected', async () => {
    const { cookie, userId, auth } = await connect(harness, MARA);
    await syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
    expect((await harness.control('POST', `/accounts/${MARA}/revoke`, {})).status).toBe(200);
    clock.advance(3600_000);
    await expect(
      syncRecentPlays(harness.database.db, harness.spotify, auth, userId),
    ).rejects.toBeInstanceOf(SpotifyDisconnectedError);
    const stats = () => harness.app.inject({ url: '/api/spotify/stats', headers: { cookie } });
    expect((await stats()).json()).toEqual({ active: false });
    await harness.login(MARA);
    expect((await stats()).json()).toEqual({ active: true });
    await syncRecentPlays(harness.database.db, harness.spotify, auth, userId);
    const stored = new Set(await storedPlays(harness, userId));
    const window = world.recentPlays(MARA, clock.now() + 1, 50).map((p) => p.playedAt);
    expect(window.filter((at) => !stored.has(at))).toEqual([]);
  });
});

describe('workers and the library', () => {
  let harness: Harness;
  const clock = new SandboxClock({ frozen: true });
  beforeAll(async () => {
    harness = await startHarness({ sandbox: { world, clock } });
  });
  afterAll(() => harness.close());

  it('two job runners share the work without doing a sync twice', async () => {
    const accounts = [
      'maralindqvist',
      '31kzt4wq7yv2jhd6ncx3bfrm5lpa',
      'chidiokafor',
      'jonasbrandt',
    ];
    const users = await Promise.all(accounts.map((account) => connect(harness, account)));
    const deps = harness.jobDependencies();
    const runners = await Promise.all([
      startJobRunner(deps, { dispatchIntervalMs: 60_000, concurrency: 2 }),
      startJobRunner(deps, { dispatchIntervalMs: 60_000, concurrency: 2 }),
    ]);
    try {
      await Promise.all(runners.map((runner) => runner.dispatch()));
      const deadline = Date.now() + 30_000;
      for (;;) {
        const synced = await harness.database.db
          .select({ at: spotifyAccounts.librarySyncedAt, recent: spotifyAccounts.recentSyncedAt })
          .from(spotifyAccounts);
        if (synced.every((row) => row.at && row.recent)) break;
        if (Date.now() > deadline) throw new Error('jobs did not finish');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const jobs = await harness.metrics.jobs.get();
      const done = (queue: string) =>
        jobs.values.find((v) => v.labels.queue === queue && v.labels.outcome === 'done')?.value;
      expect(done('sync-recent')).toBe(users.length);
      expect(done('sync-library')).toBe(users.length);
      for (const { userId } of users) {
        const rows = await storedPlays(harness, userId);
        expect(rows.length).toBe(new Set(rows).size);
        expect(rows.length).toBeGreaterThanOrEqual(50);
      }
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
  });

  it('mirrors saved tracks, follows and playlists, removals included', async () => {
    const { userId, auth } = await connect(harness, MARA);
    const now = clock.now();
    await syncLibrary(harness.database.db, harness.spotify, auth, userId);
    const saved = async () =>
      (
        await harness.database.db
          .select({ id: savedTracks.trackId })
          .from(savedTracks)
          .where(eq(savedTracks.userId, userId))
      )
        .map((row) => row.id)
        .sort();
    const worldSaved = world.savedTracks(MARA, now).map((s) => s.trackId);
    expect(await saved()).toEqual([...worldSaved].sort());
    const followed = await harness.database.db
      .select({ id: followedArtists.artistId })
      .from(followedArtists)
      .where(eq(followedArtists.userId, userId));
    expect(followed.map((row) => row.id).sort()).toEqual(
      world
        .followedArtists(MARA, now)
        .map((f) => f.artistId)
        .sort(),
    );
    const listed = await harness.database.db
      .select()
      .from(userPlaylists)
      .where(eq(userPlaylists.userId, userId));
    expect(listed).toHaveLength(world.playlistsOf(MARA, now).length);

    // Removed in Spotify's own app: gone after the next reconciling pass.
    world.removeSavedTracks(MARA, [worldSaved[0]!], now);
    await harness.database.db
      .update(spotifyAccounts)
      .set({ savedTracksReconciledAt: new Date(0) })
      .where(eq(spotifyAccounts.userId, userId));
    await syncLibrary(harness.database.db, harness.spotify, auth, userId);
    expect(await saved()).not.toContain(worldSaved[0]);
    expect((await saved()).length).toBe(worldSaved.length - 1);
  });

  it('reads only the pages with likes it does not know, between reconciling passes', async () => {
    const { userId, auth } = await connect(harness, MARA);
    const db = harness.database.db;
    await syncLibrary(db, harness.spotify, auth, userId);
    let pages = 0;
    const counting = Object.create(harness.spotify) as typeof harness.spotify;
    counting.savedTracks = (...args) => {
      pages++;
      return harness.spotify.savedTracks(...args);
    };
    const result = await syncLibrary(db, counting, auth, userId);
    expect(result.reconciled).toBe(false);
    expect(pages).toBe(1);
    // Hundreds of likes: a pass that did not stop would read many pages.
    expect(world.savedTracks(MARA, clock.now()).length).toBeGreaterThan(100);
  });

  it('does not bring back a like removed in Earshot while a sync was reading Spotify', async () => {
    const { cookie, userId, auth } = await connect(harness, MARA);
    const db = harness.database.db;
    await syncLibrary(db, harness.spotify, auth, userId);
    const [newest, second] = (await harness.spotify.savedTracks(auth)).items.map(
      (item) => item.track.id!,
    ) as [string, string];
    const uidOf = async (trackId: string) =>
      (await db.select({ uid: tracks.uid }).from(tracks).where(eq(tracks.id, trackId)))[0]!.uid;
    const like = (trackId: string, liked: boolean) =>
      uidOf(trackId).then((uid) =>
        harness.app.inject({
          method: 'POST',
          url: '/api/like',
          headers: { cookie },
          payload: { uid, liked },
        }),
      );
    const isSaved = async (trackId: string) =>
      (
        await db
          .select()
          .from(savedTracks)
          .where(and(eq(savedTracks.userId, userId), eq(savedTracks.trackId, trackId)))
      ).length === 1;

    for (const reconcile of [false, true]) {
      if (reconcile) {
        await db
          .update(spotifyAccounts)
          .set({ savedTracksReconciledAt: new Date(0) })
          .where(eq(spotifyAccounts.userId, userId));
      }
      // The sync's first page is read before the changes below reach Spotify, and stored after.
      let release!: () => void;
      const changesMade = new Promise<void>((resolve) => (release = resolve));
      let pageRead!: () => void;
      const firstPageRead = new Promise<void>((resolve) => (pageRead = resolve));
      const paused = Object.create(harness.spotify) as typeof harness.spotify;
      let pages = 0;
      paused.savedTracks = async (...args) => {
        const page = await harness.spotify.savedTracks(...args);
        if (pages++ === 0) {
          pageRead();
          await changesMade;
        }
        return page;
      };
      const sync = syncLibrary(db, paused, auth, userId);
      await firstPageRead;
      // Unliked, and unliked then liked again: the first stays removed, the second stays liked.
      expect((await like(newest, false)).json()).toMatchObject({ liked: false });
      expect((await like(second, false)).json()).toMatchObject({ liked: false });
      expect((await like(second, true)).json()).toMatchObject({ liked: true });
      release();
      await sync;
      expect(await isSaved(newest)).toBe(false);
      expect(await isSaved(second)).toBe(true);
      await syncLibrary(db, harness.spotify, auth, userId);
      expect(await isSaved(newest)).toBe(false);
      expect(await isSaved(second)).toBe(true);
      // Liked again for the next round.
      expect((await like(newest, true)).json()).toMatchObject({ liked: true });
    }
  });
});

describe('a sync whose worker died (kill -9 mid-sync)', () => {
  let harness: Harness;
  const clock = new SandboxClock({ frozen: true });
  beforeAll(async () => {
    harness = await startHarness({ sandbox: { world, clock } });
  });
  afterAll(() => harness.close());

  const account = async (userId: string) =>
    (
      await harness.database.db
        .select()
        .from(spotifyAccounts)
        .where(eq(spotifyAccounts.userId, userId))
    )[0]!;

  it('runs again once its running lease is out: its dead job is failed, not waited out', async () => {
    const { userId } = await connect(harness, MARA);
    const { db, pool } = harness.database;
    // What the dead worker left: its job active in pg-boss, the account on a running lease.
    const runner = await startJobRunner(
      {
        db,
        pool,
        cipher: harness.cipher,
        spotify: harness.spotify,
        metrics: createMetrics(),
        log: harness.app.log,
        importSettings: importSettings(harness.config),
      },
      { dispatchIntervalMs: 60_000 },
    );
    try {
      const dead = await pool.query<{ id: string }>(
        `INSERT INTO pgboss.job (name, data, singleton_key, state, started_on, policy, retry_limit)
         VALUES ('sync-library', $1, $2, 'active', now(), 'stately', 0) RETURNING id`,
        [JSON.stringify({ userId }), userId],
      );
      const jobState = async () =>
        (
          await pool.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [
            dead.rows[0]!.id,
          ])
        ).rows[0]!.state;
      expect(await startRunningLease(db, userId, 'library_due_at')).toBeDefined();
      const leased = (await account(userId)).libraryDueAt.getTime();
      expect(leased - Date.now()).toBeGreaterThan((SYNC_RUNNING_LEASE_SEC - 5) * 1000);
      expect(leased - Date.now()).toBeLessThanOrEqual(SYNC_RUNNING_LEASE_SEC * 1000);

      // While the lease holds, the job may be alive: the dispatcher leaves it alone.
      await runner.dispatch();
      expect(await jobState()).toBe('active');

      // Nobody renewed the lease: it ran out.
      await db
        .update(spotifyAccounts)
        .set({ libraryDueAt: new Date(Date.now() - 1000) })
        .where(eq(spotifyAccounts.userId, userId));
      await runner.dispatch();
      expect(await jobState()).toBe('failed');
      await expect
        .poll(async () => (await account(userId)).librarySyncedAt, { timeout: 20_000 })
        .not.toBeNull();
      expect((await account(userId)).libraryDueAt.getTime()).toBeGreaterThan(
        Date.now() + 5 * 3600_000,
      );
    } finally {
      await runner.stop();
    }
  });

  it('renews a running lease, and never overwrites the next due time the sync has set', async () => {
    const { userId } = await connect(harness, 'sofiamtz');
    const { db } = harness.database;
    const lease = await startRunningLease(db, userId, 'recent_due_at');
    const first = (await account(userId)).recentDueAt.getTime();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const renewed = await renewRunningLease(db, userId, 'recent_due_at', lease!);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(lease);
    expect((await account(userId)).recentDueAt.getTime()).toBeGreaterThan(first);
    // A renewal with a lease that is no longer the stored one changes nothing.
    expect(await renewRunningLease(db, userId, 'recent_due_at', lease!)).toBeUndefined();

    // The sync ended and scheduled its next poll; a renewal still on its way must not undo it.
    const next = new Date(Date.now() + 10 * 60_000);
    await db
      .update(spotifyAccounts)
      .set({ recentDueAt: next })
      .where(eq(spotifyAccounts.userId, userId));
    expect(await renewRunningLease(db, userId, 'recent_due_at', renewed!)).toBeUndefined();
    expect((await account(userId)).recentDueAt).toEqual(next);
  });
});

describe('a Development Mode app', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ mode: 'development', sandbox: { world } });
  });
  afterAll(() => harness.close());

  it('syncs with single lookups and without the deprecated fields', async () => {
    const { userId, auth } = await connect(harness, MARA);
    expect(
      (await syncRecentPlays(harness.database.db, harness.spotify, auth, userId)).fetched,
    ).toBe(50);
    await syncLibrary(harness.database.db, harness.spotify, auth, userId);
    expect(await enrichArtists(harness.database.db, harness.spotify, auth)).toBeGreaterThan(0);
    const [artist] = await harness.database.db
      .select()
      .from(artists)
      .where(eq(artists.id, world.followedArtists(MARA, Date.now())[0]!.artistId));
    expect(artist).toMatchObject({ genres: null, popularity: null, followers: null });
    expect(artist?.picture).toMatch(/^http/);
    const calls = await harness.metrics.spotifyRequests.get();
    const endpoints = new Set(calls.values.map((value) => value.labels.endpoint));
    expect(endpoints.has('GET /artists/{id}')).toBe(true);
  });
});

describe('enrichment of imported tracks', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ sandbox: { world } });
  });
  afterAll(() => harness.close());

  it('gives a track known only from an export its album and real artists', async () => {
    const { userId, auth } = await connect(harness, MARA);
    const track = world.tracks[123]!;
    const album = world.album(track.albumId)!;
    await harness.database.db.transaction((tx) =>
      storeImportedPlays(
        tx,
        userId,
        'extended_history',
        PlayColumns.of([
          {
            playedAt: new Date('2024-01-01T00:00:00Z'),
            msPlayed: 60_000,
            trackId: track.id,
            trackName: track.name,
            artistName: 'Name From The Export',
            albumName: album.name,
          },
        ]),
      ),
    );
    const before = (await trackSummaries(harness.database.db, [track.id])).get(track.id);
    expect(before).toMatchObject({ album: null, artists: [{ name: 'Name From The Export' }] });
    expect(await enrichTracks(harness.database.db, harness.spotify, auth)).toBeGreaterThan(0);
    const after = (await trackSummaries(harness.database.db, [track.id])).get(track.id);
    expect(after?.album).toMatchObject({ id: album.id, name: album.name });
    expect(after?.artists.map((artist) => artist.id)).toEqual(track.artistIds);
    expect(after?.duration).toBe(track.durationMs);
  });
});
