import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@earshot/contract/activity';
import type { ErrorBody } from '@earshot/contract/errors';
import type { ImportStatus } from '@earshot/contract/import';
import type { CurrentUser } from '@earshot/contract/user';
import { historyImports } from '../src/db/schema/imports';
import { plays } from '../src/db/schema/listening';
import { startJobRunner } from '../src/jobs/runner';
import { importSettings } from '../src/services/import/upload';
import { storeTracks } from '../src/services/catalog';
import { leaseImports, runHistoryImport } from '../src/services/import/history-import';
import { startHarness, type Harness } from './support/harness';
import { extendedHistoryRow } from './support/streaming-history';
import { multipartFile, zipOf } from './support/zip';

const AUDIO = 'Spotify Extended Streaming History/Streaming_History_Audio_2024.json';
const AUDIO_2 = 'Spotify Extended Streaming History/Streaming_History_Audio_2025.json';
const VIDEO = 'Spotify Extended Streaming History/Streaming_History_Video_2024.json';

let harness: Harness;
let importDir: string;
let cookie: string;
let userId: string;

function music(ts: string, id: string, name: string, ms = 200_000, extra = {}) {
  return extendedHistoryRow({
    ts,
    platform: 'android',
    ms_played: ms,
    conn_country: 'SE',
    ip_addr: '192.0.2.1',
    master_metadata_track_name: name,
    master_metadata_album_artist_name: 'The Lanterns',
    master_metadata_album_album_name: 'Night Roads',
    spotify_track_uri: `spotify:track:${id}`,
    reason_start: 'trackdone',
    offline_timestamp: null,
    ...extra,
  });
}
const podcast = (ts: string) => ({
  ...music(ts, 'x', 'x'),
  master_metadata_track_name: null,
  master_metadata_album_artist_name: null,
  master_metadata_album_album_name: null,
  spotify_track_uri: null,
  episode_name: 'Episode 12',
  spotify_episode_uri: 'spotify:episode:23GmjwY7pqkTcaGK5l2gFX',
});

const ID_A = '0MNgTp3FLtbPiCvrG8lsru';
const ID_B = '1bMkimTb47umgNP6xCi4A1';

async function exportZip() {
  return zipOf({
    [AUDIO]: JSON.stringify([
      music('2024-03-01T10:00:00Z', ID_A, 'Moonlight Drive'),
      music('2024-03-01T10:05:00Z', ID_B, 'Sunrise'),
      music('2024-03-01T10:06:00Z', ID_B, 'Sunrise', 8_000),
      music('2024-03-01T10:10:00Z', ID_A, 'Moonlight Drive', 200_000, { incognito_mode: true }),
      podcast('2024-03-01T11:00:00Z'),
      { nonsense: true },
    ]),
    [AUDIO_2]: JSON.stringify([music('2025-01-01T00:00:00Z', ID_B, 'Sunrise')]),
    [VIDEO]: JSON.stringify([music('2024-05-16T17:45:40Z', ID_A, 'Moonlight Drive')]),
    'Spotify Extended Streaming History/ReadMeFirst_ExtendedStreamingHistory.pdf': '%PDF-1.4',
  });
}

const upload = async (content: Buffer, filename = 'my_spotify_data.zip', who = cookie) => {
  const { payload, headers } = multipartFile(filename, content);
  return harness.app.inject({
    method: 'POST',
    url: '/api/spotify/import',
    payload,
    headers: { ...headers, cookie: who },
  });
};

async function runQueued() {
  const settings = importSettings(harness.config);
  for (const id of await leaseImports(harness.database.db)) {
    await runHistoryImport(harness.database.db, id, settings, harness.app.log);
  }
}

const status = async () =>
  (
    await harness.app.inject({ url: '/api/spotify/import', headers: { cookie } })
  ).json<ImportStatus>();

beforeAll(async () => {
  importDir = await mkdtemp(path.join(tmpdir(), 'earshot-imports-'));
  harness = await startHarness({
    env: { IMPORT_DIR: importDir, IMPORT_COOLDOWN_SEC: '0', IMPORT_MAX_UPLOAD_BYTES: '300000' },
  });
  cookie = (await harness.login('maralindqvist')).cookie;
  userId = (
    await harness.app.inject({ url: '/api/user/me', headers: { cookie } })
  ).json<CurrentUser>().id;
});
afterAll(() => harness.close());
// Every test starts with no imports and no plays, so each holds alone and in any order.
beforeEach(async () => {
  const { db } = harness.database;
  await db.delete(historyImports);
  await db.delete(plays);
});

describe('POST /api/spotify/import', () => {
  it('answers as soon as the upload is stored and checked, then imports it as a job', async () => {
    const response = await upload(await exportZip());
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      message: 'Upload received',
      import: { state: 'queued', files_total: 3, files_done: 0 },
    });
    await runQueued();
    const { current, total_plays_synced, last_full_history_sync } = await status();
    expect(current).toMatchObject({
      state: 'done',
      files_done: 3,
      rows_read: 8,
      plays_added: 3,
      skipped: { short: 1, incognito: 1, podcast: 1, malformed: 1, video: 1 },
      errors: [],
    });
    expect(total_plays_synced).toBe(3);
    expect(last_full_history_sync).not.toBeNull();
    expect(await readdir(importDir)).toEqual([]);
  });

  it('stores plays from the export’s names at once, visible in Recent', async () => {
    await upload(await exportZip());
    await runQueued();
    const recent = await harness.app.inject({
      url: '/api/recent?user=mara-lindqvist',
      headers: { cookie },
    });
    const titles = recent
      .json<ActivityPage>()
      .items.map((item) => `${item.track.title}@${item.date}`);
    expect(titles).toEqual([
      'Sunrise@2025-01-01T00:00:00.000Z',
      'Sunrise@2024-03-01T10:05:00.000Z',
      'Moonlight Drive@2024-03-01T10:00:00.000Z',
    ]);
  });

  it('adds nothing when the same export is imported again', async () => {
    await upload(await exportZip());
    await runQueued();
    expect((await upload(await exportZip())).statusCode).toBe(202);
    await runQueued();
    const { current, total_plays_synced } = await status();
    expect(current).toMatchObject({ state: 'done', plays_added: 0, skipped: { duplicate: 3 } });
    expect(total_plays_synced).toBe(3);
  });

  it('does not count a play twice when polling already captured it', async () => {
    await storeTracks(harness.database.db, [
      {
        id: '5BX7xYjcIA2tOTFGOg045a',
        name: 'Polled Song',
        album: { id: 'al-polled', name: 'Polled', artists: [], images: [] },
        artists: [{ id: 'artistP0000000000000001', name: 'Poller' }],
        duration_ms: 200_000,
      },
    ]);
    await harness.database.db.insert(plays).values({
      userId,
      trackId: '5BX7xYjcIA2tOTFGOg045a',
      playedAt: new Date('2024-06-01T12:00:03.456Z'),
      source: 'api',
    });
    const zip = await zipOf({
      [AUDIO]: JSON.stringify([
        { ...music('2024-06-01T12:00:00Z', '5BX7xYjcIA2tOTFGOg045a', 'Polled Song') },
        { ...music('2024-06-01T12:10:00Z', '5BX7xYjcIA2tOTFGOg045a', 'Polled Song') },
      ]),
    });
    await upload(zip);
    await runQueued();
    expect((await status()).current).toMatchObject({ plays_added: 1, skipped: { duplicate: 1 } });
  });

  it('reports a file that is not JSON and imports the others', async () => {
    const zip = await zipOf({
      [AUDIO]: '[{"ts": "2024-07-01T00:00:00Z", "ms_played": 2',
      [AUDIO_2]: JSON.stringify([music('2025-07-01T00:00:00Z', ID_A, 'Moonlight Drive')]),
    });
    await upload(zip);
    await runQueued();
    expect((await status()).current).toMatchObject({
      state: 'done',
      plays_added: 1,
      errors: [`${AUDIO}: not valid JSON`],
    });
  });
});

describe('bad uploads are refused and change nothing', () => {
  const before = async () => (await harness.database.db.select().from(historyImports)).length;

  it.each([
    [
      'a file that is not a ZIP',
      () => Promise.resolve(randomBytes(2000)),
      'my_spotify_data.zip',
      400,
      /not a ZIP/,
    ],
    [
      'a ZIP without history',
      () => zipOf({ 'notes.txt': 'hello' }),
      'data.zip',
      400,
      /no Spotify listening history/,
    ],
    [
      'a truncated ZIP',
      async () => (await exportZip()).subarray(0, 300),
      'data.zip',
      400,
      /damaged|not a ZIP/,
    ],
    ['another file type', () => zipOf({ [AUDIO]: '[]' }), 'history.json', 400, /\.zip/],
    [
      'a file over the size limit',
      () => zipOf({ [AUDIO]: '[]', 'ReadMeFirst.pdf': randomBytes(400_000) }),
      'big.zip',
      413,
      /larger than/,
    ],
    [
      'a ZIP bomb',
      () => zipOf({ [AUDIO]: Buffer.alloc(60 * 1024 ** 2, 32) }),
      'bomb.zip',
      400,
      /too large|implausible/,
    ],
  ])('%s', async (_what, make, filename, code, detail) => {
    const count = await before();
    const response = await upload(await make(), filename);
    expect(response.statusCode).toBe(code);
    expect(response.json<ErrorBody>().detail).toMatch(detail);
    expect(await before()).toBe(count);
    expect(await readdir(importDir)).toEqual([]);
  });

  it('refuses a second upload while one is running', async () => {
    expect((await upload(await exportZip())).statusCode).toBe(202);
    const second = await upload(await exportZip());
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      detail: 'An import is already running (0 of 3 files done). Wait for it to finish.',
    });
    await runQueued();
  });

  it('needs a login', async () => {
    const { payload, headers } = multipartFile('x.zip', await exportZip());
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/spotify/import',
      payload,
      headers,
    });
    expect(response.statusCode).toBe(401);
    expect((await harness.app.inject({ url: '/api/spotify/import' })).statusCode).toBe(401);
  });
});

describe('a crash mid-import', () => {
  it('resumes after the last whole file without counting anything twice', async () => {
    const other = await harness.login('chidiokafor');
    const otherId = (
      await harness.app.inject({ url: '/api/user/me', headers: { cookie: other.cookie } })
    ).json<CurrentUser>().id;
    const zip = await zipOf({
      [AUDIO]: JSON.stringify([music('2024-09-01T10:00:00Z', ID_A, 'Moonlight Drive')]),
      [AUDIO_2]: JSON.stringify([music('2025-09-01T10:00:00Z', ID_B, 'Sunrise')]),
    });
    expect((await upload(zip, 'data.zip', other.cookie)).statusCode).toBe(202);
    const [queued] = await harness.database.db
      .select()
      .from(historyImports)
      .where(eq(historyImports.userId, otherId));
    // Reproduce what a worker that died after committing the first file leaves behind: the
    // first file's plays and progress, the second file's nothing, the upload still on disk.
    const settings = importSettings(harness.config);
    await copyFile(queued!.archivePath, `${queued!.archivePath}.kept`);
    await runHistoryImport(harness.database.db, queued!.id, settings, harness.app.log);
    await rename(`${queued!.archivePath}.kept`, queued!.archivePath);
    await harness.database.db.execute(sql`
      DELETE FROM plays WHERE user_id = ${otherId} AND played_at > '2025-01-01'`);
    await harness.database.db
      .update(historyImports)
      .set({
        state: 'running',
        filesDone: 1,
        playsAdded: 1,
        finishedAt: null,
        heartbeatAt: new Date(0),
      })
      .where(eq(historyImports.id, queued!.id));

    expect(await leaseImports(harness.database.db)).toEqual([queued!.id]);
    expect(await leaseImports(harness.database.db)).toEqual([]);
    await runHistoryImport(harness.database.db, queued!.id, settings, harness.app.log);
    const [done] = await harness.database.db
      .select()
      .from(historyImports)
      .where(eq(historyImports.id, queued!.id));
    expect(done).toMatchObject({ state: 'done', filesDone: 2, playsAdded: 2 });
    const stored = await harness.database.db.select().from(plays).where(eq(plays.userId, otherId));
    expect(stored).toHaveLength(2);
  });
});

describe('an import whose worker was killed', () => {
  it('is resumed by the next dispatch, not after its dead job expires', async () => {
    const other = await harness.signIn('sofiamtz');
    const zip = await zipOf({
      [AUDIO]: JSON.stringify([music('2024-10-01T10:00:00Z', ID_A, 'Moonlight Drive')]),
    });
    expect((await upload(zip, 'data.zip', other.cookie)).statusCode).toBe(202);
    const [queued] = await harness.database.db
      .select()
      .from(historyImports)
      .where(eq(historyImports.userId, other.id));
    const runner = await startJobRunner(harness.jobDependencies(), { dispatchIntervalMs: 60_000 });
    try {
      // What `kill -9` leaves: the import running with an old heartbeat, its job still active.
      await harness.database.pool.query(
        `INSERT INTO pgboss.job (name, data, singleton_key, state, started_on, policy)
         VALUES ('import-history', $1, $2, 'active', now(), 'stately')`,
        [JSON.stringify({ importId: queued!.id }), queued!.id],
      );
      await harness.database.db
        .update(historyImports)
        .set({ state: 'running', heartbeatAt: new Date(Date.now() - 30_000) })
        .where(eq(historyImports.id, queued!.id));
      const { payload, headers } = multipartFile('data.zip', zip);
      const meanwhile = await harness.app.inject({
        method: 'POST',
        url: '/api/spotify/import',
        headers: { ...headers, cookie: other.cookie },
        payload,
      });
      expect(meanwhile.statusCode).toBe(409);
      expect(meanwhile.json<ErrorBody>().detail).toMatch(/interrupted by a restart/);
      const status = await harness.app.inject({
        url: '/api/spotify/import',
        headers: { cookie: other.cookie },
      });
      expect(status.json()).toMatchObject({ current: { state: 'running', interrupted: true } });
      await runner.dispatch();
      const deadline = Date.now() + 15_000;
      for (;;) {
        const [row] = await harness.database.db
          .select()
          .from(historyImports)
          .where(eq(historyImports.id, queued!.id));
        // Done, and its upload removed (after the state): the next test finds the folder empty.
        if (row?.state === 'done' && !existsSync(queued!.archivePath)) {
          expect(row.playsAdded).toBe(1);
          break;
        }
        if (Date.now() > deadline) throw new Error(`import still ${row?.state}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await runner.stop();
    }
  });
});
