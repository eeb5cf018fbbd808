import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type SQL } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema/users';

/** Plays read per statement: bounded memory whatever the history's length. */
const PLAYS_BATCH = 2_000;
/** Rows per chunk of text handed to the compressor (~50 KB of JSON). */
const ROWS_PER_CHUNK = 200;
/**
 * Deflate's fastest level. On the plays of a real history (ids and names, not prose) it packs
 * 3.5:1 instead of level 6's 3.9:1 (a ZIP ~10 % larger) in less than half the time: the
 * compressor was half of an export's work.
 */
const COMPRESSION = { compressionLevel: 1 };
/** Tracks whose names are remembered while the plays are written (~200 bytes each). */
const TRACK_NAMES_KEPT = 100_000;

type Value = string | number | boolean | null;
type Row = Record<string, Value>;

/** How far the writing got: read by the job that saves it as the export's progress. */
export interface ArchiveProgress {
  /** The entry being written, e.g. `plays.csv`. */
  phase: string | null;
  /** Rows written over all entries (each list twice: JSON and CSV; the profile once). */
  rowsWritten: number;
}

/** A CSV field: quoted when it holds a separator, a quote or a line break. */
function csvField(value: Value): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(columns: readonly string[], row: Row): string {
  let line = csvField(row[columns[0]!] ?? null);
  for (let i = 1; i < columns.length; i++) line += `,${csvField(row[columns[i]!] ?? null)}`;
  return `${line}\r\n`;
}

/** A batch of a list's rows as the text of one of its files. */
interface BatchText {
  rows: number;
  chunks: Buffer[];
}

/**
 * A list's batches as text, each turned into text by `toText` as soon as it is read, so that
 * only its text waits for the compressor: rows kept meanwhile (even in a suspended generator)
 * reached V8's old generation and grew the heap by ~150 MB before each full collection. Each
 * call reads the list from its start.
 */
type Batches = (toText: (rows: readonly Row[]) => BatchText) => AsyncGenerator<BatchText>;

/** A batch's text in pieces of `ROWS_PER_CHUNK` rows: small enough for V8's young generation. */
function textOf(rows: readonly Row[], line: (row: Row, index: number) => string): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
    let text = '';
    const end = Math.min(rows.length, start + ROWS_PER_CHUNK);
    for (let i = start; i < end; i++) text += line(rows[i]!, i);
    chunks.push(Buffer.from(text));
  }
  return chunks;
}

/**
 * One statement's rows as a single batch (the small lists: likes, friends, ignores), read once
 * for both files.
 */
function oneBatch(db: Db, query: SQL): Batches {
  let read: Promise<readonly Row[]> | undefined;
  return async function* (toText) {
    yield toText(await (read ??= db.execute<Row>(query).then((result) => result.rows)));
  };
}

type TrackNames = {
  track: string | null;
  album: string | null;
  artists: string | null;
};

const UNKNOWN_TRACK: TrackNames = { track: null, album: null, artists: null };

/**
 * Names of tracks, album and artists by track id, read for the tracks of each batch of plays
 * that are not remembered yet. A history plays the same tracks again and again: a million plays
 * name ~30,000 tracks, so the catalogue is read once per track instead of once per play.
 */
class TrackNamesReader {
  private kept = new Map<string, TrackNames>();

  constructor(private readonly db: Db) {}

  /** The names of every track of `trackIds`, all of them remembered afterwards. */
  async of(trackIds: readonly string[]): Promise<Map<string, TrackNames>> {
    let missing = new Set<string>();
    for (const id of trackIds) if (!this.kept.has(id)) missing.add(id);
    if (missing.size === 0) return this.kept;
    // A bound, not an LRU: past it (a history of that many different tracks) names are read again.
    if (this.kept.size + missing.size > TRACK_NAMES_KEPT) {
      this.kept = new Map();
      missing = new Set(trackIds);
    }
    for (const id of missing) this.kept.set(id, UNKNOWN_TRACK);
    const { rows } = await this.db.execute<TrackNames & { id: string }>(sql`
      SELECT t.id, t.name AS track, al.name AS album,
             (SELECT string_agg(a.name, ', ' ORDER BY ta.position)
              FROM track_artists ta JOIN artists a ON a.id = ta.artist_id
              WHERE ta.track_id = t.id) AS artists
      FROM tracks t LEFT JOIN albums al ON al.id = t.album_id
      WHERE t.id = ANY(${sql.param([...missing])}::text[])`);
    // Tracks the catalogue does not hold stay unknown: their plays keep empty names.
    for (const { id, ...found } of rows) this.kept.set(id, found);
    return this.kept;
  }
}

type PlayRow = {
  played_at: string;
  track_id: string;
  ms_played: number | null;
  source: string;
  context_uri: string | null;
};

/**
 * One batch of the user's plays after `after` (up to `until` when given), with their names, as
 * text, and the key of its last play.
 */
async function playsAfter(
  db: Db,
  userId: string,
  { after, until }: { after: string; until: string | undefined },
  trackNames: TrackNamesReader,
  toText: (rows: readonly Row[]) => BatchText,
): Promise<{ text: BatchText; last: string } | undefined> {
  // Microseconds as stored: the text is both the export's value and the next batch's key.
  const { rows } = await db.execute<PlayRow>(sql`
    SELECT to_char(p.played_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS played_at,
           p.track_id, p.ms_played, p.source, p.context_uri
    FROM plays p
    WHERE p.user_id = ${userId} AND p.played_at > ${after}::timestamptz
      ${until === undefined ? sql`` : sql`AND p.played_at <= ${until}::timestamptz`}
    -- The column, not the text of the same name: the (user_id, played_at) key's order.
    ORDER BY p.played_at
    LIMIT ${PLAYS_BATCH}`);
  if (rows.length === 0) return undefined;
  const names = await trackNames.of(rows.map((play) => play.track_id));
  const text = toText(
    rows.map((play) => {
      const { track, album, artists } = names.get(play.track_id)!;
      return {
        played_at: play.played_at,
        track_id: play.track_id,
        track,
        album,
        artists,
        ms_played: play.ms_played,
        source: play.source,
        context_uri: play.context_uri,
      };
    }),
  );
  return { text, last: rows[rows.length - 1]!.played_at };
}

/**
 * The user's plays, oldest first, a batch at a time along the (user, played_at) key. Each file
 * reads them again (the names come from `trackNames`, read once); a later reading stops at the
 * first one's last play, so that plays synced meanwhile are in neither file rather than in one.
 */
function playBatches(db: Db, userId: string, trackNames: TrackNamesReader): Batches {
  let firstReadEnd: string | undefined;
  return async function* (toText) {
    const until = firstReadEnd;
    let after = new Date(0).toISOString();
    for (;;) {
      const batch = await playsAfter(db, userId, { after, until }, trackNames, toText);
      if (!batch) break;
      after = batch.last;
      yield batch.text;
    }
    firstReadEnd ??= after;
  };
}

const trackColumns = sql`
  t.name AS track,
  (SELECT string_agg(a.name, ', ' ORDER BY ta.position)
   FROM track_artists ta JOIN artists a ON a.id = ta.artist_id WHERE ta.track_id = t.id) AS artists`;

/** A list of the export, written as `<name>.json` and `<name>.csv`. */
interface ExportList {
  name: string;
  columns: readonly string[];
  batches: Batches;
}

/** What the export holds: each list as JSON and as CSV. */
function exportLists(db: Db, userId: string): ExportList[] {
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
      batches: playBatches(db, userId, new TrackNamesReader(db)),
    },
    {
      name: 'likes',
      columns: ['added_at', 'track_id', 'track', 'artists'],
      batches: oneBatch(
        db,
        sql`SELECT s.added_at, s.track_id, ${trackColumns}
            FROM saved_tracks s LEFT JOIN tracks t ON t.id = s.track_id
            WHERE s.user_id = ${userId} ORDER BY s.added_at, s.track_id`,
      ),
    },
    {
      name: 'friends',
      columns: ['status', 'username', 'name', 'since'],
      batches: oneBatch(
        db,
        sql`SELECT 'friend' AS status, u.username, u.name, f.since
            FROM friendships f JOIN users u ON u.id = f.friend_id WHERE f.user_id = ${userId}
            UNION ALL
            SELECT 'request_sent', u.username, u.name, r.created_at
            FROM friend_requests r JOIN users u ON u.id = r.addressee_id
            WHERE r.requester_id = ${userId}
            UNION ALL
            SELECT 'request_received', u.username, u.name, r.created_at
            FROM friend_requests r JOIN users u ON u.id = r.requester_id
            WHERE r.addressee_id = ${userId}
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
            FROM ignored_tracks i WHERE i.user_id = ${userId}
            UNION ALL
            SELECT 'artist', i.artist_id, a.name, i.reported, i.created_at
            FROM ignored_artists i JOIN artists a ON a.id = i.artist_id
            WHERE i.user_id = ${userId}
            ORDER BY 1, 2`,
      ),
    },
  ];
}

/**
 * The rows an export of the user will hold (`ArchiveProgress.rowsWritten` at the end), counted
 * before it is written: the progress bar's 100 %.
 */
export async function countArchiveRows(db: Db, userId: string): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    SELECT ((SELECT count(*) FROM plays WHERE user_id = ${userId})
          + (SELECT count(*) FROM saved_tracks WHERE user_id = ${userId})
          + (SELECT count(*) FROM friendships WHERE user_id = ${userId})
          + (SELECT count(*) FROM friend_requests
             WHERE requester_id = ${userId} OR addressee_id = ${userId})
          + (SELECT count(*) FROM ignored_tracks WHERE user_id = ${userId})
          + (SELECT count(*) FROM ignored_artists WHERE user_id = ${userId})) * 2 + 1 AS n`);
  return Number(rows[0]!.n);
}

/** How a list is written in one of its files. */
interface FileFormat {
  extension: 'json' | 'csv';
  head: (list: ExportList) => string;
  /** A row's text; `first`: the file's first row. */
  line: (list: ExportList, row: Row, first: boolean) => string;
  tail: (rows: number) => string;
}

/** An array, one row a line. */
const JSON_FORMAT: FileFormat = {
  extension: 'json',
  head: () => '[',
  line: (_list, row, first) => `${first ? '\n' : ',\n'}${JSON.stringify(row)}`,
  tail: (rows) => (rows === 0 ? ']\n' : '\n]\n'),
};

/** The columns, then one row a line. */
const CSV_FORMAT: FileFormat = {
  extension: 'csv',
  head: (list) => `${list.columns.join(',')}\r\n`,
  line: (list, row) => csvLine(list.columns, row),
  tail: () => '',
};

/** A list's entry in one format. Rows count once per file in the progress. */
async function* entryText(
  list: ExportList,
  format: FileFormat,
  progress: ArchiveProgress,
  signal: AbortSignal,
): AsyncGenerator<Buffer> {
  progress.phase = `${list.name}.${format.extension}`;
  yield Buffer.from(format.head(list));
  let rows = 0;
  const toText = (batch: readonly Row[]): BatchText => ({
    rows: batch.length,
    chunks: textOf(batch, (row, i) => format.line(list, row, rows === 0 && i === 0)),
  });
  for await (const text of list.batches(toText)) {
    signal.throwIfAborted();
    yield* text.chunks;
    rows += text.rows;
    progress.rowsWritten += text.rows;
  }
  yield Buffer.from(format.tail(rows));
}

/**
 * Writes the user's data as a ZIP to `path` (profile, plays, likes, friends, ignores; each list
 * in JSON and CSV) and answers its size. Each entry reads its list when the archive reaches it,
 * plays a batch at a time, and is compressed as it is read: memory stays flat however long the
 * history is, and nothing waits on disk. Stops with `signal`'s reason when aborted.
 */
export async function writeArchive(
  db: Db,
  user: UserRow,
  path: string,
  progress: ArchiveProgress,
  signal: AbortSignal,
): Promise<number> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // An entry that cannot be read fails the whole file.
  const fail = (error: Error) => output.destroy(error);
  zip.on('error', fail);
  const profile = {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    spotify_id: user.spotifyId,
    created_at: user.createdAt.toISOString(),
  };
  zip.addBuffer(Buffer.from(`${JSON.stringify(profile, null, 2)}\n`), 'profile.json');
  const profileColumns = Object.keys(profile);
  zip.addBuffer(
    Buffer.from(`${profileColumns.join(',')}\r\n${csvLine(profileColumns, profile)}`),
    'profile.csv',
  );
  progress.phase = 'profile.json';
  progress.rowsWritten += 1;
  for (const list of exportLists(db, user.id)) {
    for (const format of [JSON_FORMAT, CSV_FORMAT]) {
      // Each entry is read only once the archive reaches it, after the one before.
      zip.addReadStreamLazy(`${list.name}.${format.extension}`, COMPRESSION, (callback) => {
        const stream = Readable.from(entryText(list, format, progress, signal), {
          // One chunk ahead at most (the default would read 16 ahead).
          highWaterMark: 1,
        });
        callback(null, stream.on('error', fail));
      });
    }
  }
  zip.end();
  await pipeline(output, createWriteStream(path), { signal });
  return (await stat(path)).size;
}
