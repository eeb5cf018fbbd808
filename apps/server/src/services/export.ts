import { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import type { Db } from '../db/client';
import type { UserRow } from '../db/schema/users';

/** Plays read per statement: bounded memory whatever the history's length. */
const PLAYS_BATCH = 5_000;

type Row = Record<string, string | number | boolean | null>;

/** A CSV field: quoted when it holds a separator, a quote or a line break. */
function csvField(value: Row[string]): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Batches of rows, in order, each a list; ends with an empty batch. */
type Batches = () => AsyncGenerator<Row[]>;

async function* asCsv(columns: readonly string[], batches: Batches): AsyncGenerator<string> {
  yield `${columns.join(',')}\r\n`;
  for await (const rows of batches()) {
    yield rows
      .map((row) => `${columns.map((c) => csvField(row[c] ?? null)).join(',')}\r\n`)
      .join('');
  }
}

async function* asJsonArray(batches: Batches): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const rows of batches()) {
    for (const row of rows) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(row)}`;
      first = false;
    }
  }
  yield first ? ']\n' : '\n]\n';
}

/** One statement's rows as a single batch (the small lists: likes, friends, ignores). */
function oneBatch(db: Db, query: SQL): Batches {
  return async function* () {
    yield (await db.execute<Row>(query)).rows;
  };
}

/** The user's plays, oldest first, a batch at a time along the (user, played_at) key. */
function playBatches(db: Db, userId: string): Batches {
  return async function* () {
    let after = new Date(0).toISOString();
    for (;;) {
      const { rows } = await db.execute<Row & { played_at: string }>(sql`
        SELECT to_char(p.played_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS played_at,
               p.track_id, t.name AS track, al.name AS album,
               (SELECT string_agg(a.name, ', ' ORDER BY ta.position)
                FROM track_artists ta JOIN artists a ON a.id = ta.artist_id
                WHERE ta.track_id = p.track_id) AS artists,
               p.ms_played, p.source, p.context_uri
        FROM plays p
        LEFT JOIN tracks t ON t.id = p.track_id
        LEFT JOIN albums al ON al.id = t.album_id
        WHERE p.user_id = ${userId} AND p.played_at > ${after}::timestamptz
        ORDER BY p.played_at
        LIMIT ${PLAYS_BATCH}`);
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.played_at;
    }
  };
}

const trackColumns = sql`
  t.name AS track,
  (SELECT string_agg(a.name, ', ' ORDER BY ta.position)
   FROM track_artists ta JOIN artists a ON a.id = ta.artist_id WHERE ta.track_id = t.id) AS artists`;

/** What the export holds: each list as JSON and as CSV. */
function exportLists(db: Db, user: UserRow) {
  return [
    {
      name: 'plays',
      columns: [
        'played_at',
        'track_id',
        'track',
        'artists',
        'album',
        'ms_played',
        'source',
        'context_uri',
      ],
      batches: playBatches(db, user.id),
    },
    {
      name: 'likes',
      columns: ['added_at', 'track_id', 'track', 'artists'],
      batches: oneBatch(
        db,
        sql`SELECT s.added_at, s.track_id, ${trackColumns}
            FROM saved_tracks s LEFT JOIN tracks t ON t.id = s.track_id
            WHERE s.user_id = ${user.id} ORDER BY s.added_at, s.track_id`,
      ),
    },
    {
      name: 'friends',
      columns: ['status', 'username', 'name', 'since'],
      batches: oneBatch(
        db,
        sql`SELECT 'friend' AS status, u.username, u.name, f.since
            FROM friendships f JOIN users u ON u.id = f.friend_id WHERE f.user_id = ${user.id}
            UNION ALL
            SELECT 'request_sent', u.username, u.name, r.created_at
            FROM friend_requests r JOIN users u ON u.id = r.addressee_id
            WHERE r.requester_id = ${user.id}
            UNION ALL
            SELECT 'request_received', u.username, u.name, r.created_at
            FROM friend_requests r JOIN users u ON u.id = r.requester_id
            WHERE r.addressee_id = ${user.id}
            ORDER BY 1, 2`,
      ),
    },
    {
      name: 'ignores',
      columns: ['kind', 'key', 'name', 'reported', 'ignored_at'],
      batches: oneBatch(
        db,
        sql`SELECT 'track' AS kind, i.uid AS key,
                   (SELECT t.name FROM tracks t WHERE t.uid = i.uid ORDER BY t.id LIMIT 1) AS name,
                   i.reported, i.created_at AS ignored_at
            FROM ignored_tracks i WHERE i.user_id = ${user.id}
            UNION ALL
            SELECT 'artist', i.artist_id, a.name, i.reported, i.created_at
            FROM ignored_artists i JOIN artists a ON a.id = i.artist_id
            WHERE i.user_id = ${user.id}
            ORDER BY 1, 2`,
      ),
    },
  ];
}

/**
 * The user's data as a ZIP (profile, plays, likes, friends, ignores; each list in JSON and CSV),
 * built while it is sent: every entry is read from the database only when the archive reaches it,
 * plays a batch at a time, so memory stays flat however long the history is.
 */
export function accountExport(db: Db, user: UserRow): Readable {
  const zip = new ZipFile();
  const profile = {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    spotify_id: user.spotifyId,
    created_at: user.createdAt.toISOString(),
  };
  zip.addBuffer(Buffer.from(`${JSON.stringify(profile, null, 2)}\n`), 'profile.json');
  const profileRow: Row = profile;
  const columns = Object.keys(profile);
  zip.addBuffer(
    Buffer.from(
      `${columns.join(',')}\r\n${columns.map((c) => csvField(profileRow[c] ?? null)).join(',')}\r\n`,
    ),
    'profile.csv',
  );
  const output = zip.outputStream as Readable;
  // A failed read ends the download with an error rather than leaving it waiting.
  const entry = (chunks: AsyncGenerator<string>) =>
    Readable.from(chunks).on('error', (error) => output.destroy(error));
  for (const list of exportLists(db, user)) {
    zip.addReadStream(entry(asJsonArray(list.batches)), `${list.name}.json`);
    zip.addReadStream(entry(asCsv(list.columns, list.batches)), `${list.name}.csv`);
  }
  zip.end();
  return output;
}
