import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { betaRequests } from '../src/db/schema/beta';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { storeTracks } from '../src/services/catalog';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { startHarness, type Harness, type Viewer } from './support/harness';

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;

const artist = { id: 'artistD0000000000000001', name: 'Dune Tape' };
const track = (id: string): SpotifyTrack => ({
  id,
  name: `Song ${id}`,
  album: { id: `al-${id}`, name: 'Dunes', release_date: '2018', artists: [artist], images: [] },
  artists: [artist],
  duration_ms: 200_000,
});

type Method = 'GET' | 'POST' | 'DELETE';
const call = (viewer: Viewer | undefined, method: Method, url: string, payload?: object) =>
  harness.app.inject({
    method,
    url,
    headers: viewer ? { cookie: viewer.cookie } : {},
    ...(payload && { payload }),
  });

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
  (await call(viewer, 'GET', `/api/user/${handle}/public`)).json<{ stats: unknown }>().stats;

beforeAll(async () => {
  harness = await startHarness({ env: { ADMIN_EMAILS: 'aiko.tanaka@example.com' } });
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
  await call(mara, 'POST', '/api/friendship/request/tomas-ferreira');
  await call(tomas, 'POST', '/api/friendship/accept/mara-lindqvist');
  await call(tomas, 'POST', '/api/friendship/request/aiko-tanaka');
  await call(tomas, 'POST', '/api/ignore/track/del02/report');
  await call(mara, 'POST', '/api/ignore/track/del02/report');
  await db.insert(betaRequests).values({ email: 'tomas.ferreira@example.com' });
});
afterAll(() => harness.close());

/** The entries of a ZIP as text, by name. */
function unzip(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const files = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('downloading one’s data', () => {
  it('answers 401 to visitors', async () => {
    expect((await call(undefined, 'GET', '/api/user/export')).statusCode).toBe(401);
  });

  it('holds the profile, plays, likes, friends and ignores as in the database, JSON and CSV', async () => {
    // Enough plays for several batches.
    await harness.database.db.execute(sql`
      INSERT INTO plays (user_id, played_at, track_id, source, ms_played)
      SELECT ${tomas.id}, timestamptz '2020-01-01' + n * interval '1 minute 0.000123 second',
             'del0' || (1 + n % 2), 'extended_history', 1000 + n
      FROM generate_series(1, 12000) AS n`);
    const answer = await call(tomas, 'GET', '/api/user/export');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/zip');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="earshot-tomas-ferreira-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const files = await unzip(answer.rawPayload);
    expect([...files.keys()].sort()).toEqual(
      ['friends', 'ignores', 'likes', 'plays', 'profile']
        .flatMap((name) => [`${name}.csv`, `${name}.json`])
        .sort(),
    );
    const profile = JSON.parse(files.get('profile.json')!) as { username: string; id: string };
    expect(profile).toMatchObject({ id: tomas.id, username: 'tomas-ferreira' });

    const dbPlays = await harness.database.db.execute<{ played_at: string; ms_played: number }>(sql`
      SELECT to_char(played_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS played_at,
             ms_played
      FROM plays WHERE user_id = ${tomas.id} ORDER BY played_at`);
    const plays = JSON.parse(files.get('plays.json')!) as {
      played_at: string;
      ms_played: number;
      track: string;
      artists: string;
    }[];
    expect(plays.map((play) => [play.played_at, play.ms_played])).toEqual(
      dbPlays.rows.map((row) => [row.played_at, row.ms_played]),
    );
    expect(plays[0]).toMatchObject({ track: 'Song del02', artists: 'Dune Tape' });
    const csvLines = files.get('plays.csv')!.trimEnd().split('\r\n');
    expect(csvLines[0]).toBe('played_at,track_id,track,artists,album,ms_played,source,context_uri');
    expect(csvLines).toHaveLength(dbPlays.rows.length + 1);
    expect(csvLines[1]).toBe(
      `${plays[0]!.played_at},del02,Song del02,Dune Tape,Dunes,1001,extended_history,`,
    );

    expect(JSON.parse(files.get('likes.json')!)).toEqual([
      expect.objectContaining({ track_id: 'del01', track: 'Song del01' }),
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
      expect.objectContaining({ kind: 'track', key: 'del02', name: 'Song del02', reported: true }),
    ]);
    expect(files.get('ignores.csv')!.split('\r\n')[0]).toBe('kind,key,name,reported,ignored_at');
  });
});

describe('deleting one’s account', () => {
  it('authorizes before reading the confirmation, and needs the typed username', async () => {
    expect((await call(undefined, 'DELETE', '/api/user/me', { nope: 1 })).statusCode).toBe(401);
    const wrong = await call(tomas, 'DELETE', '/api/user/me', { confirmation: 'mara-lindqvist' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: 'Type your username to confirm the deletion.' });
    expect((await call(tomas, 'DELETE', '/api/user/me', {})).statusCode).toBe(400);
    expect((await rowsOf(tomas.id)).users).toBe(1);
  });

  it('removes every row of the user, logs out everywhere and leaves the others as they were', async () => {
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
    const friends = (await call(mara, 'GET', '/api/friendship/list')).json<{
      friends: unknown[];
    }>();
    expect(friends.friends).toEqual([]);
    expect((await call(aiko, 'GET', '/api/friendship/pending')).json()).toEqual({ requests: [] });
    // Mara's report still counts; Tomas's is gone with him.
    const waiting = (await call(aiko, 'GET', '/api/admin/notifications')).json<{
      reports: { tracks: { uid: string; report_count: number }[] };
    }>();
    expect(waiting.reports.tracks).toEqual([
      expect.objectContaining({ uid: 'del02', report_count: 1 }),
    ]);
    expect((await call(mara, 'GET', '/api/user/tomas-ferreira/public')).statusCode).toBe(404);
  });
});
