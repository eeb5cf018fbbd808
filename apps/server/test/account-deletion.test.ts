import { existsSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminNotifications } from '@earshot/contract/admin';
import type { FriendList } from '@earshot/contract/friendship';
import type { PublicProfile } from '@earshot/contract/profile';
import { betaRequests } from '../src/db/schema/beta';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { storeTracks } from '../src/services/catalog';
import { leaseExports, runDataExport } from '../src/services/export/data-export';
import { startHarness, type Harness, type Viewer } from './support/harness';
import { soloTrack } from './support/tracks';

let harness: Harness;
let exportDir: string;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;

const artist = { id: 'artistD0000000000000001', name: 'Dune Tape' };
const track = (id: string) => soloTrack(artist, id, { album: 'Dunes', releaseDate: '2018' });

const call = (...request: Parameters<Harness['request']>) => harness.request(...request);

/** Every (table, column) whose foreign key points at users.id. */
async function userColumns(): Promise<{ table: string; column: string }[]> {
  const result = await harness.database.db.execute<{ table: string; column: string }>(sql`
    SELECT cl.relname AS table, a.attname AS column
    FROM pg_constraint c
    JOIN pg_class cl ON cl.oid = c.conrelid
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
    WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass`);
  return result.rows;
}

async function rowsOf(userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table, column } of await userColumns()) {
    const result = await harness.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${userId}`,
    );
    counts[`${table}.${column}`] = result.rows[0]!.n;
  }
  const user = await harness.database.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM users WHERE id = ${userId}`,
  );
  counts.users = user.rows[0]!.n;
  return counts;
}

const profile = async (viewer: Viewer, handle: string) =>
  (await call(viewer, 'GET', `/api/user/${handle}/public`)).json<PublicProfile>().stats;

beforeAll(async () => {
  exportDir = await mkdtemp(path.join(tmpdir(), 'earshot-exports-'));
  harness = await startHarness({
    env: { ADMIN_EMAILS: 'aiko.tanaka@example.com', EXPORT_DIR: exportDir },
  });
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
  const db = harness.database.db;
  await storeTracks(db, [track('del01'), track('del02')]);
  const now = Date.now();
  for (const viewer of [mara, tomas]) {
    await db.insert(plays).values(
      [0, 1, 2].map((n) => ({
        userId: viewer.id,
        trackId: n === 2 ? 'del02' : 'del01',
        playedAt: new Date(now - n * 60_000),
        source: 'api' as const,
      })),
    );
    await db
      .insert(savedTracks)
      .values({ userId: viewer.id, trackId: 'del01', addedAt: new Date() });
  }
  await harness.befriend(mara, tomas);
  await call(tomas, 'POST', '/api/friendship/request/aiko-tanaka');
  await call(tomas, 'POST', '/api/ignore/track/del02/report');
  await call(mara, 'POST', '/api/ignore/track/del02/report');
  await db.insert(betaRequests).values({ email: 'tomas.ferreira@example.com' });
});
afterAll(() => harness.close());

describe('deleting one’s account', () => {
  it('authorizes before reading the confirmation, and needs the typed username', async () => {
    expect((await call(undefined, 'DELETE', '/api/user/me', { nope: 1 })).statusCode).toBe(401);
    // Aiko's account: the next test deletes Tomas's, and either may run first.
    const wrong = await call(aiko, 'DELETE', '/api/user/me', { confirmation: 'mara-lindqvist' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'Type your username to confirm the deletion.' });
    expect((await call(aiko, 'DELETE', '/api/user/me', {})).statusCode).toBe(400);
    expect((await rowsOf(aiko.id)).users).toBe(1);
  });

  it('removes every row of the user, logs out everywhere and leaves the others as they were', async () => {
    // A finished data export of Tomas's and one of Mara's, each a file on disk.
    for (const viewer of [tomas, mara]) {
      expect((await call(viewer, 'POST', '/api/user/export')).statusCode).toBe(202);
    }
    for (const id of await leaseExports(harness.database.db)) {
      await runDataExport(harness.database.db, id, harness.app.log);
    }
    const exportFile = async (viewer: Viewer) => {
      const rows = await harness.database.db.execute<{ file_path: string }>(
        sql`SELECT file_path FROM data_exports WHERE user_id = ${viewer.id} AND status = 'ready'`,
      );
      return rows.rows[0]!.file_path;
    };
    const [tomasFile, maraFile] = [await exportFile(tomas), await exportFile(mara)];
    expect(existsSync(tomasFile) && existsSync(maraFile)).toBe(true);
    const before = await rowsOf(tomas.id);
    // The fixture gave the user rows of each kind the issue names.
    for (const table of [
      'plays.user_id',
      'saved_tracks.user_id',
      'user_track_stats.user_id',
      'user_days.user_id',
      'friendships.user_id',
      'friendships.friend_id',
      'friend_requests.requester_id',
      'ignored_tracks.user_id',
      'sessions.user_id',
      'spotify_accounts.user_id',
      'data_exports.user_id',
    ]) {
      expect(before[table], table).toBeGreaterThan(0);
    }
    const maraBefore = await profile(mara, 'mara-lindqvist');
    const aikoBefore = await profile(aiko, 'aiko-tanaka');
    const secondSession = (await harness.login('31kzt4wq7yv2jhd6ncx3bfrm5lpa')).cookie;

    const deletion = await call(tomas, 'DELETE', '/api/user/me', {
      confirmation: ' Tomas-Ferreira ',
    });
    expect(deletion.statusCode).toBe(204);
    expect(deletion.cookies.find((cookie) => cookie.name === 'earshot_session')?.value).toBe('');

    const after = await rowsOf(tomas.id);
    expect(
      Object.values(after).every((count) => count === 0),
      JSON.stringify(after),
    ).toBe(true);
    // The export's file went with its row; Mara's stays.
    expect(existsSync(tomasFile)).toBe(false);
    expect(await readdir(exportDir)).toEqual([path.basename(maraFile)]);
    const beta = await harness.database.db.execute(
      sql`SELECT 1 FROM beta_requests WHERE email = 'tomas.ferreira@example.com'`,
    );
    expect(beta.rows).toEqual([]);
    for (const cookie of [tomas.cookie, secondSession]) {
      const me = await harness.app.inject({ url: '/api/user/me', headers: { cookie } });
      expect(me.statusCode).toBe(401);
    }

    expect(await profile(mara, 'mara-lindqvist')).toEqual(maraBefore);
    expect(await profile(aiko, 'aiko-tanaka')).toEqual(aikoBefore);
    const friends = (await call(mara, 'GET', '/api/friendship/list')).json<FriendList>();
    expect(friends.friends).toEqual([]);
    expect((await call(aiko, 'GET', '/api/friendship/pending')).json()).toEqual({ requests: [] });
    // Mara's report still counts; Tomas's is gone with him.
    const waiting = (
      await call(aiko, 'GET', '/api/admin/notifications')
    ).json<AdminNotifications>();
    expect(waiting.reports.tracks).toEqual([
      expect.objectContaining({ uid: 'del02', report_count: 1 }),
    ]);
    expect((await call(mara, 'GET', '/api/user/tomas-ferreira/public')).statusCode).toBe(404);
  });
});
