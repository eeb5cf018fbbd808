import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DataExport, DataExportState } from '@earshot/contract/export';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataExports } from '../src/db/schema/exports';
import { savedTracks } from '../src/db/schema/library';
import { spotifyAccounts } from '../src/db/schema/spotify-accounts';
import { startJobRunner } from '../src/jobs/runner';
import { storeTracks } from '../src/services/catalog';
import { writeArchive, type ArchiveProgress } from '../src/services/export/archive';
import {
  leaseExports,
  removeExpiredExports,
  runDataExport,
} from '../src/services/export/data-export';
import { findUserByHandle } from '../src/services/users';
import { startHarness, type Harness, type Viewer } from './support/harness';
import { soloTrack } from './support/tracks';
import { unzipText } from './support/zip';

/*
 * "Download my data" as a job: started with POST, followed with GET, downloaded once ready. Each
 * test signs in its own users, so the tests hold alone and in any order.
 */

let harness: Harness;
let exportDir: string;

const artist = { id: 'artistD0000000000000001', name: 'Dune Tape' };
const track = (id: string) => soloTrack(artist, id, { album: 'Dunes', releaseDate: '2018' });

const call = (...request: Parameters<Harness['request']>) => harness.request(...request);

const state = async (viewer: Viewer) =>
  (await call(viewer, 'GET', '/api/user/export')).json<DataExportState>().export;

async function start(viewer: Viewer): Promise<DataExport> {
  const answer = await call(viewer, 'POST', '/api/user/export');
  expect(answer.statusCode).toBe(202);
  return answer.json<DataExport>();
}

/** Runs every export waiting for a worker, as the job runner's dispatch does. */
async function runPending(options?: { progressEveryMs: number }) {
  for (const id of await leaseExports(harness.database.db)) {
    await runDataExport(harness.database.db, id, harness.app.log, options);
  }
}

async function fileOf(exportId: string): Promise<string> {
  const [row] = await harness.database.db
    .select({ filePath: dataExports.filePath })
    .from(dataExports)
    .where(eq(dataExports.id, exportId));
  return row!.filePath;
}

/** `count` plays of the user a minute apart, microseconds included, from `from` on. */
async function addPlays(userId: string, count: number, from = '2020-01-01') {
  await harness.database.db.execute(sql`
    INSERT INTO plays (user_id, played_at, track_id, source, ms_played)
    SELECT ${userId}, ${from}::timestamptz + n * interval '1 minute 0.000123 second',
           'exp0' || (1 + n % 2), 'extended_history', 1000 + n
    FROM generate_series(1, ${count}::int) AS n`);
}

beforeAll(async () => {
  exportDir = await mkdtemp(path.join(tmpdir(), 'earshot-exports-'));
  // The progress is polled far more often than a browser does.
  harness = await startHarness({
    env: { EXPORT_DIR: exportDir, RATE_LIMIT_PER_MINUTE: '100000' },
  });
  await storeTracks(harness.database.db, [track('exp01'), track('exp02')]);
});
afterAll(() => harness.close());

describe('POST, GET /api/user/export and its download', () => {
  it('answers 401 to visitors on every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/user/export'],
      ['POST', '/api/user/export'],
      ['GET', '/api/user/export/download'],
    ] as const) {
      const answer = await call(undefined, method, url);
      expect(answer.statusCode, `${method} ${url}`).toBe(401);
      expect(answer.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it('starts as a job, shows its progress, then holds the profile, plays, likes, friends and ignores as in the database', async () => {
    const tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
    const mara = await harness.signIn('maralindqvist');
    const aiko = await harness.signIn('11183207465');
    const db = harness.database.db;
    await harness.befriend(mara, tomas);
    await call(tomas, 'POST', '/api/friendship/request/aiko-tanaka');
    await call(tomas, 'POST', '/api/ignore/track/exp02/report');
    await db
      .insert(savedTracks)
      .values({ userId: tomas.id, trackId: 'exp01', addedAt: new Date() });
    // Enough plays for several batches.
    await addPlays(tomas.id, 12_000);

    expect(await state(tomas)).toBeNull();
    const started = await start(tomas);
    expect(started).toMatchObject({ status: 'pending', rows_written: 0, size_bytes: null });
    expect(await state(tomas)).toEqual(started);
    const download = await call(tomas, 'GET', '/api/user/export/download');
    expect(download.statusCode).toBe(404);
    expect(download.json()).toEqual({
      detail: 'No export is ready to download. Start one first.',
    });

    // What the Settings page sees while the job runs, polled as it polls (more often).
    const seen: DataExport[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        seen.push((await state(tomas))!);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await runPending({ progressEveryMs: 10 });
    polling = false;
    await poller;
    const running = seen.filter((snapshot) => snapshot.status === 'running');
    expect(running.length).toBeGreaterThan(0);
    const partway = running.filter(
      (snapshot) => snapshot.rows_written > 0 && snapshot.rows_written < snapshot.rows_total,
    );
    expect(partway.length, JSON.stringify(running.slice(0, 5))).toBeGreaterThan(0);
    expect(partway[0]!.phase).toMatch(/^(profile|plays|likes|friends|ignores)\.(json|csv)$/);
    // Rows only move forward.
    const written = running.map((snapshot) => snapshot.rows_written);
    expect(written).toEqual([...written].sort((a, b) => a - b));

    const ready = (await state(tomas))!;
    // 12,000 plays, 1 like, 2 friends and requests, 1 ignore: twice each (JSON and CSV), and
    // the profile.
    expect(ready).toMatchObject({
      id: started.id,
      status: 'ready',
      phase: null,
      rows_written: 2 * 12_004 + 1,
      rows_total: 2 * 12_004 + 1,
      error: null,
    });
    expect(Date.parse(ready.expires_at!) - Date.parse(ready.finished_at!)).toBe(24 * 3600_000);

    const answer = await call(tomas, 'GET', '/api/user/export/download');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/zip');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="earshot-tomas-ferreira-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(answer.rawPayload.length).toBe(ready.size_bytes);
    const files = await unzipText(answer.rawPayload);
    expect([...files.keys()].sort()).toEqual(
      ['friends', 'ignores', 'likes', 'plays', 'profile']
        .flatMap((name) => [`${name}.csv`, `${name}.json`])
        .sort(),
    );
    const profile = JSON.parse(files.get('profile.json')!) as { username: string; id: string };
    expect(profile).toMatchObject({ id: tomas.id, username: 'tomas-ferreira' });

    const dbPlays = await db.execute<{ played_at: string; ms_played: number }>(sql`
      SELECT to_char(played_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS played_at,
             ms_played
      FROM plays WHERE user_id = ${tomas.id} ORDER BY played_at`);
    const exported = JSON.parse(files.get('plays.json')!) as {
      played_at: string;
      ms_played: number;
      track: string;
      artists: string;
    }[];
    expect(exported.map((play) => [play.played_at, play.ms_played])).toEqual(
      dbPlays.rows.map((row) => [row.played_at, row.ms_played]),
    );
    expect(exported[0]).toMatchObject({ track: 'Song exp02', artists: 'Dune Tape' });
    const csvLines = files.get('plays.csv')!.trimEnd().split('\r\n');
    expect(csvLines[0]).toBe('played_at,track_id,track,artists,album,ms_played,source,context_uri');
    expect(csvLines).toHaveLength(dbPlays.rows.length + 1);
    expect(csvLines[1]).toBe(
      `${exported[0]!.played_at},exp02,Song exp02,Dune Tape,Dunes,1001,extended_history,`,
    );

    expect(JSON.parse(files.get('likes.json')!)).toEqual([
      expect.objectContaining({ track_id: 'exp01', track: 'Song exp01' }),
    ]);
    const friends = JSON.parse(files.get('friends.json')!) as {
      status: string;
      username: string;
    }[];
    expect(friends.map((friend) => [friend.status, friend.username])).toEqual([
      ['friend', 'mara-lindqvist'],
      ['request_sent', 'aiko-tanaka'],
    ]);
    expect(JSON.parse(files.get('ignores.json')!)).toEqual([
      expect.objectContaining({ kind: 'track', key: 'exp02', name: 'Song exp02', reported: true }),
    ]);
    expect(files.get('ignores.csv')!.split('\r\n')[0]).toBe('kind,key,name,reported,ignored_at');
    // Aiko's data is not in Tomas's export.
    expect(files.get('plays.json')).not.toContain(aiko.id);
  });

  it('writes plays in JSON and CSV exactly, names with quotes, commas and line breaks included', async () => {
    const viewer = await harness.signIn('31ugbq6xn2r7cfy4d5kzsmhwtaoe');
    const odd = { id: 'artistOdd00000000000001', name: 'Ana "Xo", Zoë' };
    await storeTracks(harness.database.db, [
      {
        ...track('expOdd'),
        name: 'Say "Hi",\nWorld',
        album: { ...track('expOdd').album!, id: 'al-expOdd', name: 'A, B' },
        artists: [odd, artist],
      },
    ]);
    // The second play's track is not in the catalogue: its names stay empty.
    await harness.database.db.execute(sql`
      INSERT INTO plays (user_id, played_at, track_id, source, ms_played, context_uri) VALUES
        (${viewer.id}, '2021-03-04T05:06:07.000891Z', 'expOdd', 'api', 1234,
         'spotify:playlist:a,"b"'),
        (${viewer.id}, '2021-03-04T05:09:00Z', 'expGone', 'extended_history', NULL, NULL)`);
    await start(viewer);
    await runPending();
    const files = await unzipText(
      (await call(viewer, 'GET', '/api/user/export/download')).rawPayload,
    );

    const plays = [
      {
        played_at: '2021-03-04T05:06:07.000891Z',
        track_id: 'expOdd',
        track: 'Say "Hi",\nWorld',
        album: 'A, B',
        artists: 'Ana "Xo", Zoë, Dune Tape',
        ms_played: 1234,
        source: 'api',
        context_uri: 'spotify:playlist:a,"b"',
      },
      {
        played_at: '2021-03-04T05:09:00.000000Z',
        track_id: 'expGone',
        track: null,
        album: null,
        artists: null,
        ms_played: null,
        source: 'extended_history',
        context_uri: null,
      },
    ];
    // One play a line, keys in this order.
    expect(files.get('plays.json')).toBe(
      `[\n${plays.map((play) => JSON.stringify(play)).join(',\n')}\n]\n`,
    );
    expect(files.get('plays.csv')).toBe(
      'played_at,track_id,track,artists,album,ms_played,source,context_uri\r\n' +
        '2021-03-04T05:06:07.000891Z,expOdd,"Say ""Hi"",\nWorld","Ana ""Xo"", Zoë, Dune Tape",' +
        '"A, B",1234,api,"spotify:playlist:a,""b"""\r\n' +
        '2021-03-04T05:09:00.000000Z,expGone,,,,,extended_history,\r\n',
    );
  });

  it('holds the same plays in JSON and CSV when a play is synced between the two', async () => {
    const viewer = await harness.signIn('31pd8vnx2kq6wzr4tyc7mhjb5gfe');
    await addPlays(viewer.id, 30);
    const db = harness.database.db;
    let synced: Promise<unknown> | undefined;
    // The JSON is whole when the CSV starts: a play synced then is newer than all it holds.
    let phase: string | null = null;
    const progress: ArchiveProgress = {
      rowsWritten: 0,
      get phase() {
        return phase;
      },
      set phase(next) {
        phase = next;
        if (next === 'plays.csv') synced = addPlays(viewer.id, 1, '2030-01-01');
      },
    };
    const file = path.join(exportDir, 'synced-between.zip');
    await writeArchive(
      db,
      (await findUserByHandle(db, viewer.id))!,
      file,
      progress,
      new AbortController().signal,
    );
    await synced;
    const files = await unzipText(await readFile(file));
    const json = (JSON.parse(files.get('plays.json')!) as { played_at: string }[]).map(
      (play) => play.played_at,
    );
    const csv = files
      .get('plays.csv')!
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(json).toHaveLength(30);
    expect(csv).toEqual(json);
    expect(progress.rowsWritten).toBe(2 * 30 + 1);
  });

  it('shows an export only to its owner', async () => {
    const owner = await harness.signIn('chidiokafor');
    const other = await harness.signIn('jonasbrandt');
    await addPlays(owner.id, 3);
    const started = await start(owner);
    await runPending();
    expect((await state(owner))?.status).toBe('ready');

    expect(await state(other)).toBeNull();
    const theirs = await call(other, 'GET', '/api/user/export/download');
    expect(theirs.statusCode).toBe(404);
    // Another user's start makes their own export and leaves the owner's as it was.
    const otherExport = await start(other);
    expect(otherExport.id).not.toBe(started.id);
    expect((await state(owner))?.id).toBe(started.id);
    await runPending();
    const otherFiles = await unzipText(
      (await call(other, 'GET', '/api/user/export/download')).rawPayload,
    );
    expect(JSON.parse(otherFiles.get('plays.json')!)).toEqual([]);
    expect(JSON.parse(otherFiles.get('profile.json')!)).toMatchObject({ id: other.id });
    const ownerFiles = await unzipText(
      (await call(owner, 'GET', '/api/user/export/download')).rawPayload,
    );
    expect(JSON.parse(ownerFiles.get('plays.json')!)).toHaveLength(3);
  });

  it('answers the running export to a second start, and replaces a finished one', async () => {
    const viewer = await harness.signIn('sofiamtz');
    const first = await start(viewer);
    const again = await Promise.all([start(viewer), start(viewer)]);
    expect(again.map((answer) => answer.id)).toEqual([first.id, first.id]);
    const rows = await harness.database.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, viewer.id));
    expect(rows).toHaveLength(1);

    await runPending();
    const firstFile = await fileOf(first.id);
    expect(existsSync(firstFile)).toBe(true);
    const second = await start(viewer);
    expect(second.id).not.toBe(first.id);
    expect(second.status).toBe('pending');
    // The earlier export and its file are gone.
    expect(existsSync(firstFile)).toBe(false);
    expect(await state(viewer)).toEqual(second);
  });

  it('reports a failure with its reason and leaves no file behind', async () => {
    const viewer = await harness.signIn('ethanbrooks');
    const started = await start(viewer);
    // The export directory cannot be made: a file is in the way.
    const blocker = path.join(exportDir, 'not-a-directory');
    await writeFile(blocker, 'x');
    await harness.database.db
      .update(dataExports)
      .set({ filePath: path.join(blocker, `${started.id}.zip`) })
      .where(eq(dataExports.id, started.id));
    expect(await leaseExports(harness.database.db)).toContain(started.id);
    await expect(runDataExport(harness.database.db, started.id, harness.app.log)).rejects.toThrow(
      /EEXIST/,
    );
    expect(await state(viewer)).toMatchObject({
      id: started.id,
      status: 'failed',
      error:
        "The export could not be written to the server's disk (EEXIST). Please try again later.",
    });
    expect((await call(viewer, 'GET', '/api/user/export/download')).statusCode).toBe(404);
    expect((await readdir(exportDir)).filter((name) => name.startsWith(started.id))).toEqual([]);
    // Another try starts a new export.
    const retry = await start(viewer);
    expect(retry).toMatchObject({ status: 'pending', error: null });
    expect(retry.id).not.toBe(started.id);
  });

  it('reports a database failure midway and removes the half-written file', async () => {
    const viewer = await harness.signIn('31h7cxwqz3m5kv2pn8dytbrj4lsa');
    await addPlays(viewer.id, 50);
    const started = await start(viewer);
    expect(await leaseExports(harness.database.db)).toContain(started.id);
    // The catalogue cannot be read: the profile is in the file by then, the plays are not.
    await harness.database.db.execute(sql`ALTER TABLE artists RENAME TO artists_away`);
    try {
      await expect(runDataExport(harness.database.db, started.id, harness.app.log)).rejects.toThrow(
        /artists/,
      );
    } finally {
      await harness.database.db.execute(sql`ALTER TABLE artists_away RENAME TO artists`);
    }
    const failed = (await state(viewer))!;
    expect(failed).toMatchObject({
      status: 'failed',
      phase: null,
      error: 'The export failed while reading your data. Please try again.',
    });
    // How far it got.
    expect(failed).toMatchObject({ rows_written: 1, rows_total: 101 });
    expect((await readdir(exportDir)).filter((name) => name.startsWith(started.id))).toEqual([]);
  });

  it('deletes an export and its file a day after it finished', async () => {
    const viewer = await harness.signIn('camilledubois');
    const started = await start(viewer);
    await runPending();
    const file = await fileOf(started.id);
    expect(existsSync(file)).toBe(true);
    expect(await removeExpiredExports(harness.database.db)).toBe(0);

    await harness.database.db
      .update(dataExports)
      .set({ finishedAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(dataExports.id, started.id));
    // Expired is gone at once for its owner, before the clean-up runs.
    expect(await state(viewer)).toBeNull();
    expect((await call(viewer, 'GET', '/api/user/export/download')).statusCode).toBe(404);
    expect(await removeExpiredExports(harness.database.db)).toBe(1);
    expect(existsSync(file)).toBe(false);
    expect(await readdir(exportDir)).not.toContain(path.basename(file));
  });

  it('says so when the file of a ready export is gone', async () => {
    const viewer = await harness.signIn('rafasouza');
    const started = await start(viewer);
    await runPending();
    await rm(await fileOf(started.id));
    const answer = await call(viewer, 'GET', '/api/user/export/download');
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ detail: 'The export file is gone. Start a new export.' });
  });
});

describe('the export job', () => {
  // pg-boss sets up its schema in the embedded database first: slow on a busy machine.
  it(
    'is taken by the job runner as soon as it starts, and started again when its worker died',
    { timeout: 90_000 },
    async () => {
      const viewer = await harness.signIn('12168805723');
      await addPlays(viewer.id, 20);
      // The runner's dispatch would also sync the account from Spotify: not due during this test.
      const later = new Date(Date.now() + 3600_000);
      await harness.database.db
        .update(spotifyAccounts)
        .set({ recentDueAt: later, libraryDueAt: later })
        .where(eq(spotifyAccounts.userId, viewer.id));
      const runner = await startJobRunner(harness.jobDependencies(), {
        dispatchIntervalMs: 60_000,
      });
      const until = async (done: (current: DataExport | null) => boolean) => {
        const deadline = Date.now() + 15_000;
        for (;;) {
          const current = await state(viewer);
          if (done(current)) return current!;
          if (Date.now() > deadline) throw new Error(`export still ${JSON.stringify(current)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      try {
        // No dispatch in between: the start itself wakes the runner.
        const started = await start(viewer);
        const ready = await until((current) => current?.status === 'ready');
        expect(ready).toMatchObject({ id: started.id, rows_written: 41 });

        // What `kill -9` mid-export leaves: running, an old heartbeat, half a file.
        const second = await start(viewer);
        await until((current) => current?.id === second.id && current.status === 'ready');
        const file = await fileOf(second.id);
        await writeFile(`${file}.part`, 'half');
        await harness.database.db
          .update(dataExports)
          .set({
            status: 'running',
            rowsWritten: 7,
            sizeBytes: null,
            finishedAt: null,
            heartbeatAt: new Date(Date.now() - 30_000),
          })
          .where(eq(dataExports.id, second.id));
        expect(await state(viewer)).toMatchObject({ status: 'running', rows_written: 7 });
        await runner.dispatch();
        const redone = await until((current) => current?.status === 'ready');
        expect(redone).toMatchObject({ id: second.id, rows_written: 41 });
        expect(existsSync(`${file}.part`)).toBe(false);
        const files = await unzipText(
          (await call(viewer, 'GET', '/api/user/export/download')).rawPayload,
        );
        expect(JSON.parse(files.get('plays.json')!)).toHaveLength(20);
      } finally {
        await runner.stop();
      }
    },
  );
});
