/**
 * Issue 12, crash and restart, with real processes: Earshot runs as `main.ts serve` in its own
 * process and is killed with SIGKILL mid-import and mid-sync, then started again on the same
 * database; and its PostgreSQL is stopped and started under traffic. Spotify is the sandbox in
 * this process, as Spotify outlives a crash of Earshot.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { printCurrentRow } from '@earshot/spotify-sandbox/exports/extended-history';
import { streamingRows } from '@earshot/spotify-sandbox/exports/rows';
import { SpokenCatalogue } from '@earshot/spotify-sandbox/exports/spoken';
import { SandboxClock } from '@earshot/spotify-sandbox/clock';
import { startSandboxServer, type SandboxServer } from '@earshot/spotify-sandbox/main';
import type { FaultConfigInput } from '@earshot/spotify-sandbox/faults/config';
import type { World } from '@earshot/spotify-sandbox/world/model';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followedArtists, savedTracks, userPlaylists } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { spotifyAccounts } from '../src/db/schema/spotify-accounts';
import {
  EARSHOT_PORTS,
  freePort,
  killAllEarshotProcesses,
  signInOverHttp,
  startEarshotProcess,
} from './support/earshot-process';
import { findPostgresBinaries, startThrowawayCluster } from './support/postgres-cluster';
import { processDatabase } from './support/process-database';
import { zipOf } from './support/zip';

/** Issue 12: a restarted server resumes interrupted work within this long. */
const RESUME_WITHIN_MS = 30_000;
/** Once PostgreSQL is back, requests succeed again within this long, with no restart. */
const RECOVER_WITHIN_MS = 15_000;
const CLIENT_ID = 'earshot-crash';
const DAY_MS = 24 * 3600_000;

let world: World;
beforeAll(() => {
  world = createWorld();
});
afterAll(() => killAllEarshotProcesses());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `read` every `everyMs` until `done` holds for its answer; fails after `timeoutMs`. */
async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs, everyMs = 100 }: { timeoutMs: number; everyMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const last = JSON.stringify(value).slice(0, 2500);
      throw new Error(`${what}: not within ${timeoutMs / 1000} s; last ${last}`);
    }
    await sleep(everyMs);
  }
}

/**
 * The sandbox on a port of its own, knowing Earshot's callback on `earshotPort`, clock frozen.
 * Its port is the kernel's pick (0), bound at once and never in EARSHOT_PORTS: a port of that
 * range found free could be the one `earshotPort` names, which Earshot has not bound yet.
 */
async function startSandbox(earshotPort: number, faults?: FaultConfigInput) {
  const clock = new SandboxClock({ frozen: true });
  const sandbox = await startSandboxServer({
    world,
    clock,
    faults,
    port: 0,
    clients: [
      {
        id: CLIENT_ID,
        redirectUris: [`http://127.0.0.1:${earshotPort}/api/spotify/callback`],
        mode: 'extended',
      },
    ],
  });
  return { sandbox, clock };
}

const spotifyEnv = (sandbox: SandboxServer) => ({
  SPOTIFY_CLIENT_ID: CLIENT_ID,
  SPOTIFY_ACCOUNTS_URL: `${sandbox.url}/accounts`,
  SPOTIFY_API_URL: `${sandbox.url}/v1`,
});

async function getJson<T>(url: string, cookie?: string): Promise<T> {
  const response = await fetch(url, { headers: cookie ? { cookie } : {} });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

describe('kill -9 mid-import', () => {
  const ACCOUNT = 'chidiokafor';
  const FOLDER = 'Spotify Extended Streaming History';
  const ROWS_PER_FILE = 2_000;
  const TRACK_URI = /^spotify:track:[0-9A-Za-z]{22}$/;

  interface HistoryExport {
    zip: Buffer;
    files: number;
    rows: number;
    /** When each row the import must store was played (ms), sorted. */
    plays: number[];
  }

  /**
   * A year of the account's Extended Streaming History as the sandbox prints it (music, skips,
   * podcasts, audiobooks, videos, incognito), ending a month ago so that the plays the first
   * sync polls are not among them, in files of 2,000 rows: each file is one transaction, so
   * progress shows often.
   */
  async function historyExport(now: number): Promise<HistoryExport> {
    const account = world.account(ACCOUNT)!;
    const untilMs = now - 30 * DAY_MS;
    const audio: unknown[][] = [[]];
    const video: unknown[] = [];
    const expected: number[] = [];
    let rows = 0;
    for (const row of streamingRows(world, account, new SpokenCatalogue(world.seed), {
      untilMs,
      sinceMs: untilMs - 365 * DAY_MS,
      audiobooks: true,
    })) {
      rows++;
      const printed = JSON.parse(printCurrentRow(row)) as Record<string, unknown>;
      if (row.video) {
        video.push(printed);
        continue;
      }
      if (audio.at(-1)!.length === ROWS_PER_FILE) audio.push([]);
      audio.at(-1)!.push(printed);
      // What an import keeps (docs/product.md, decision 0008): music with a track URI and names,
      // heard for 30 s or more, outside private sessions.
      const isPlay =
        TRACK_URI.test(String(printed.spotify_track_uri)) &&
        printed.master_metadata_track_name !== null &&
        printed.master_metadata_album_artist_name !== null &&
        printed.incognito_mode !== true &&
        Number(printed.ms_played) >= 30_000;
      if (isPlay) expected.push(Date.parse(String(printed.ts)));
    }
    const entries: Record<string, string> = {};
    audio.forEach((file, index) => {
      entries[`${FOLDER}/Streaming_History_Audio_${index}.json`] = JSON.stringify(file);
    });
    entries[`${FOLDER}/Streaming_History_Video_0.json`] = JSON.stringify(video);
    return {
      zip: await zipOf(entries),
      files: audio.length + 1,
      rows,
      plays: [...new Set(expected)].sort((a, b) => a - b),
    };
  }

  interface ImportStatus {
    current: {
      state: string;
      files_done: number;
      files_total: number;
      rows_read: number;
      plays_added: number;
      errors: string[];
      interrupted: boolean;
    } | null;
  }

  it('resumes within 30 s of the restart and stores every play of the export exactly once', async () => {
    const database = await processDatabase();
    const port = await freePort(...EARSHOT_PORTS);
    const { sandbox, clock } = await startSandbox(port);
    try {
      const history = await historyExport(clock.now());
      expect(history.files).toBeGreaterThanOrEqual(6);
      const env = { ...database.env, ...spotifyEnv(sandbox) };
      const first = await startEarshotProcess(port, env);
      const cookie = await signInOverHttp(first.url, ACCOUNT);
      const me = await getJson<{ id: string }>(`${first.url}/api/user/me`, cookie);
      const form = new FormData();
      form.set('file', new Blob([history.zip]), 'my_spotify_data.zip');
      const upload = await fetch(`${first.url}/api/spotify/import`, {
        method: 'POST',
        body: form,
        headers: { cookie },
      });
      expect(upload.status, await upload.clone().text()).toBe(202);
      const status = (url: string) => getJson<ImportStatus>(`${url}/api/spotify/import`, cookie);

      // Killed once some files are stored and others are not.
      const midway = await waitFor(
        'a first file imported',
        () => status(first.url),
        ({ current }) => current!.files_done >= 1 || ['done', 'failed'].includes(current!.state),
        { timeoutMs: 120_000, everyMs: 50 },
      );
      await first.kill();
      expect(midway.current, 'the import ended before the kill').toMatchObject({
        state: 'running',
      });

      const second = await startEarshotProcess(port, env);
      const restartedAt = Date.now();
      const after = (await status(second.url)).current!;
      expect(after.state).toBe('running');
      expect(after.files_done).toBeLessThan(history.files);
      await waitFor(
        'the import resumed',
        () => status(second.url),
        ({ current }) => current!.files_done > after.files_done || current!.state !== 'running',
        { timeoutMs: RESUME_WITHIN_MS - (Date.now() - restartedAt), everyMs: 250 },
      );
      const done = await waitFor(
        'the import done',
        () => status(second.url),
        ({ current }) => current!.state !== 'running',
        { timeoutMs: 120_000, everyMs: 250 },
      );
      expect(done.current).toMatchObject({
        state: 'done',
        files_done: history.files,
        files_total: history.files,
        rows_read: history.rows,
        plays_added: history.plays.length,
        errors: [],
        interrupted: false,
      });

      await second.stop();
      const stored = await database.inspect(async ({ db }) => {
        const rows = await db
          .select({ at: plays.playedAt })
          .from(plays)
          .where(and(eq(plays.userId, me.id), eq(plays.source, 'extended_history')));
        return rows.map((row) => row.at.getTime()).sort((a, b) => a - b);
      });
      expect(stored).toEqual(history.plays);
    } finally {
      await killAllEarshotProcesses();
      await sandbox.close();
      await database.remove();
    }
  }, 300_000);
});

describe('kill -9 mid-sync', () => {
  /** The demo account with the largest library: 22 pages of saved tracks. */
  const ACCOUNT = 'rafasouza';

  interface Stats {
    total_likes: number;
    total_plays: number;
    playlists: number;
  }

  it('completes the first library sync within 30 s of the restart, exactly as Spotify holds it', async () => {
    const database = await processDatabase();
    const port = await freePort(...EARSHOT_PORTS);
    // Saved tracks come slowly, so that the sync is surely killed between two pages.
    const { sandbox, clock } = await startSandbox(port, {
      rules: [{ type: 'latency', ms: 250, path: '/v1/me/tracks' }],
    });
    try {
      const now = clock.now();
      const expected = {
        saved: world.savedTracks(ACCOUNT, now).map((saved) => saved.trackId),
        followed: world.followedArtists(ACCOUNT, now).map((followed) => followed.artistId),
        playlists: world.playlistsOf(ACCOUNT, now).length,
        plays: world
          .recentPlays(ACCOUNT, now + 1, 50)
          .filter((play) => !play.localFile)
          .map((play) => play.playedAt),
      };
      const env = { ...database.env, ...spotifyEnv(sandbox) };
      const first = await startEarshotProcess(port, env);
      const cookie = await signInOverHttp(first.url, ACCOUNT);
      const me = await getJson<{ id: string; username: string }>(
        `${first.url}/api/user/me`,
        cookie,
      );
      // The profile's counts: saved tracks (likes), playlists and plays as stored.
      const stats = async (url: string) =>
        (await getJson<{ stats: Stats }>(`${url}/api/user/${me.username}/public`, cookie)).stats;

      // Signing in made the account due: the first sync starts at the next dispatch.
      const midway = await waitFor(
        'saved tracks arriving',
        () => stats(first.url),
        (now) => now.total_likes > 0,
        { timeoutMs: 120_000, everyMs: 50 },
      );
      await first.kill();
      expect(midway.total_likes, 'the sync ended before the kill').toBeLessThan(
        expected.saved.length,
      );
      // Spotify answers at once from here on: what is timed is Earshot's recovery.
      const cleared = await fetch(`${sandbox.url}/control/faults`, { method: 'DELETE' });
      expect(cleared.status).toBe(204);

      const second = await startEarshotProcess(port, env);
      const synced = await waitFor(
        'the library synced',
        () => stats(second.url),
        (now) => now.total_likes === expected.saved.length && now.playlists === expected.playlists,
        { timeoutMs: RESUME_WITHIN_MS, everyMs: 250 },
      );
      expect(synced.total_plays).toBe(expected.plays.length);

      await second.stop();
      const stored = await database.inspect(async ({ db }) => {
        const userId = me.id;
        const [account] = await db
          .select()
          .from(spotifyAccounts)
          .where(eq(spotifyAccounts.userId, userId));
        const ids = async (rows: Promise<{ id: string }[]>) =>
          (await rows).map((row) => row.id).sort();
        return {
          librarySyncedAt: account!.librarySyncedAt,
          saved: await ids(
            db
              .select({ id: savedTracks.trackId })
              .from(savedTracks)
              .where(eq(savedTracks.userId, userId)),
          ),
          followed: await ids(
            db
              .select({ id: followedArtists.artistId })
              .from(followedArtists)
              .where(eq(followedArtists.userId, userId)),
          ),
          playlists: (await db.select().from(userPlaylists).where(eq(userPlaylists.userId, userId)))
            .length,
          plays: (
            await db.select({ at: plays.playedAt }).from(plays).where(eq(plays.userId, userId))
          )
            .map((row) => row.at.getTime())
            .sort((a, b) => a - b),
        };
      });
      expect(stored.librarySyncedAt).not.toBeNull();
      expect(stored.saved).toEqual([...expected.saved].sort());
      expect(stored.followed).toEqual([...new Set(expected.followed)].sort());
      expect(stored.playlists).toBe(expected.playlists);
      expect(stored.plays).toEqual([...expected.plays].sort((a, b) => a - b));
    } finally {
      await killAllEarshotProcesses();
      await sandbox.close();
      await database.remove();
    }
  }, 300_000);
});

// PGlite runs inside the server process: there is no database server to stop. This runs in the
// PostgreSQL pass (TEST_DATABASE_URL), on a cluster of its own that it may stop.
const binaries = findPostgresBinaries();
const poolSkipReason = !process.env.TEST_DATABASE_URL
  ? 'runs in the PostgreSQL pass (TEST_DATABASE_URL)'
  : 'missing' in binaries
    ? binaries.missing
    : undefined;

describe(`PostgreSQL stopped under traffic${poolSkipReason ? ` (skipped: ${poolSkipReason})` : ''}`, () => {
  interface Answer {
    path: string;
    status: number;
    body: string;
    retryAfter: string | null;
    at: number;
  }

  it.runIf(poolSkipReason === undefined)(
    'answers 503 with a detail while it is down and recovers its pool once it is back, without a restart',
    async () => {
      if ('missing' in binaries) throw new Error(binaries.missing);
      const cluster = await startThrowawayCluster(binaries);
      const dataDir = await mkdtemp(path.join(tmpdir(), 'earshot-crash-'));
      const port = await freePort(...EARSHOT_PORTS);
      const { sandbox } = await startSandbox(port);
      try {
        const admin = new pg.Client({ connectionString: cluster.url('postgres') });
        await admin.connect();
        await admin.query('CREATE DATABASE crash_pool');
        await admin.end();
        const server = await startEarshotProcess(port, {
          DATABASE_URL: cluster.url('crash_pool'),
          ENCRYPTION_KEY: 'a'.repeat(64),
          DATA_DIR: dataDir,
          ...spotifyEnv(sandbox),
        });
        const cookie = await signInOverHttp(server.url, 'maralindqvist');

        // An open tab's live stream, held open all along.
        const closeLive = new AbortController();
        const live = await fetch(`${server.url}/api/live`, {
          headers: { cookie },
          signal: closeLive.signal,
        });
        expect(live.status).toBe(200);
        const liveRead = live.body!.pipeTo(new WritableStream()).catch(() => {});

        // Traffic: the footer's status, the feed and the import status, over and over.
        const answers: Answer[] = [];
        const paths = ['/api/status', '/api/recent?limit=30', '/api/spotify/import'];
        let traffic = true;
        const round = () =>
          Promise.all(
            paths.map(async (path): Promise<Answer> => {
              const at = Date.now();
              try {
                const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
                const retryAfter = response.headers.get('retry-after');
                return {
                  path,
                  status: response.status,
                  body: await response.text(),
                  retryAfter,
                  at,
                };
              } catch (error) {
                // Status 0: no answer at all (refused, reset): the process is gone.
                const body = String((error as Error).cause ?? error);
                return { path, status: 0, body, retryAfter: null, at };
              }
            }),
          );
        const loop = (async () => {
          while (traffic) {
            answers.push(...(await round()));
            await sleep(50);
          }
        })();
        const allOkSince = (since: number) => async () => {
          const latest = paths.map((path) =>
            answers.findLast((answer) => answer.path === path && answer.at >= since),
          );
          return latest.every((answer) => answer?.status === 200);
        };
        try {
          await waitFor('traffic answered', allOkSince(Date.now()), Boolean, {
            timeoutMs: 30_000,
          });
          const stoppedAt = Date.now();
          await cluster.stop();
          // How each path answered since PostgreSQL stopped, e.g. {"/api/recent?limit=30 503": 4}.
          const since = async () => {
            const seen: Record<string, number | string> = server.alive()
              ? {}
              : { exited: server.output().slice(-2000) };
            for (const { path, status } of answers.filter((answer) => answer.at > stoppedAt)) {
              seen[`${path} ${status}`] = Number(seen[`${path} ${status}`] ?? 0) + 1;
            }
            return seen;
          };
          await waitFor(
            'a 503 while PostgreSQL is down',
            since,
            (seen) => Object.keys(seen).some((key) => key.endsWith(' 503')),
            { timeoutMs: 30_000 },
          );
          await sleep(2_000);
          await cluster.start();
          const startedAt = Date.now();
          await waitFor('requests succeeding again', allOkSince(startedAt), Boolean, {
            timeoutMs: RECOVER_WITHIN_MS,
          });
          expect(Date.now() - startedAt).toBeLessThan(RECOVER_WITHIN_MS);
        } finally {
          traffic = false;
          closeLive.abort();
          await Promise.all([loop, liveRead]);
        }

        expect(server.alive(), server.output()).toBe(true);
        const unexpected = answers.filter(
          (answer) => answer.status !== 200 && answer.status !== 503,
        );
        expect(unexpected, server.output()).toEqual([]);
        for (const answer of answers.filter((answer) => answer.status === 503)) {
          expect(JSON.parse(answer.body)).toEqual({
            detail: 'The database is unavailable. Please try again in a moment.',
          });
          expect(answer.retryAfter).toBe('5');
        }
        // The process never stopped answering what needs no database.
        expect(
          answers.filter((answer) => answer.path === '/api/status' && answer.status !== 200),
        ).toEqual([]);
      } finally {
        await killAllEarshotProcesses();
        await sandbox.close();
        await cluster.remove();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
