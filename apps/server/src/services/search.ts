import type {
  AlbumResult,
  ArtistResult,
  SearchResults,
  TrackResult,
  UserResult,
} from '@earshot/contract/search';
import { sql, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { SpotifyError } from '../spotify/errors';
import type { SearchPage } from '../spotify/schemas';
import { storeAlbums, storeArtists, storeTracks } from './catalog';
import { SpotifyDisconnectedError } from './spotify-tokens';
import { foldText } from './text';
import { trackSummaries } from './tracks';
import { friendIdsQuery } from './social';

/**
 * Matches of each kind (name prefix, words anywhere) ranked per query. A bound keeps a common
 * word as fast as a rare one; past it, a match beyond the first this many of its kind is not
 * considered (the names that start with the query come in folded order: the exact one first).
 */
const CANDIDATES_PER_KIND = 200;

/** How long a query Spotify already filled is answered from the store alone. */
const SPOTIFY_FILL_TTL_MS = 10 * 60_000;

/**
 * The queries this process asked Spotify about lately: what came back is stored, so asking again
 * (the same words typed by someone else, or again) would spend the rate limit for nothing new.
 */
export class RecentSpotifySearches {
  private readonly asked = new LRUCache<string, true>({ max: 10_000, ttl: SPOTIFY_FILL_TTL_MS });

  private static key(foldedText: string, limit: number): string {
    return `${limit}\u0000${foldedText}`;
  }

  answered(foldedText: string, limit: number): boolean {
    return this.asked.has(RecentSpotifySearches.key(foldedText, limit));
  }

  /** Spotify answered this query (a failure is asked again next time). */
  remember(foldedText: string, limit: number): void {
    this.asked.set(RecentSpotifySearches.key(foldedText, limit), true);
  }
}

export interface SearchParams {
  text: string;
  limit: number;
  /** The signed-in viewer: their friends come first among people. */
  viewerId: string | undefined;
  /** For a signed-in viewer: Spotify's search, with their token, fills what Earshot lacks. */
  fill?: { spotify: SpotifyClient; auth: TokenSource; recent: RecentSpotifySearches };
}

/** The query, folded as the database folds names, and its words as LIKE patterns. */
interface Folded {
  /** `earshot_fold` of the whole query: exact and prefix name matches. */
  text: string;
  /** Each word, starting a word of the name (`earshot_fold`). */
  words: string[];
  /** Each word, folded as the tracks' `search_text` was (in JS). */
  trackWords: string[];
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

async function foldQuery(db: Db, text: string): Promise<Folded> {
  const result = await db.execute<{ folded: string }>(sql`SELECT earshot_fold(${text}) AS folded`);
  const folded = result.rows[0]?.folded ?? '';
  return { text: folded, words: wordsOf(folded), trackWords: wordsOf(foldText(text)) };
}

/**
 * `earshot_fold(text)` written out, for values no index holds (ranking): PostgreSQL does not
 * inline the function (its dictionary cast is only STABLE), and calling it costs four times as
 * much. Where an index on `earshot_fold(…)` should serve, the function itself must be named.
 */
function foldedSql(text: SQL): SQL {
  return sql`lower(public.unaccent('public.unaccent'::regdictionary, ${text}))`;
}

/** Every word starts one of the words of `column` (trigram-indexed, so 1-letter words too). */
function everyWordStarts(column: SQL, words: readonly string[]): SQL {
  return sql.join(
    words.map((word) => {
      const escaped = escapeLike(word);
      return sql`(${column} LIKE ${`${escaped}%`} OR ${column} LIKE ${`% ${escaped}%`})`;
    }),
    sql` AND `,
  );
}

/**
 * 0 the exact name, 1 a name that starts with the query, 2 a name with every word, 3 a match
 * through other fields only (a track's album or artists).
 */
function nameRank(folded: SQL, query: Folded): SQL {
  return sql`CASE WHEN ${folded} = ${query.text} THEN 0
                  WHEN ${folded} LIKE ${`${escapeLike(query.text)}%`} THEN 1
                  WHEN ${everyWordStarts(folded, query.words)} THEN 2 ELSE 3 END`;
}

/** What each catalogue table's search reads: the shown columns and what ranks them. */
const CATALOGUE_COLUMNS = {
  tracks: ['id', 'name', 'popularity'],
  albums: ['id', 'name', 'picture'],
  artists: ['id', 'name', 'picture', 'genres', 'popularity'],
} as const;

/** Where each catalogue table's listeners are counted: per-user stats by that table's id. */
const LISTENS = {
  tracks: ['user_track_stats', 'track_id'],
  albums: ['user_album_stats', 'album_id'],
  artists: ['user_artist_stats', 'artist_id'],
} as const;

/** Each catalogue table's words (migration `search_words`), by that table's id. */
const WORDS = {
  tracks: ['track_words', 'track_id'],
  albums: ['album_words', 'album_id'],
  artists: ['artist_words', 'artist_id'],
} as const;

type CatalogueTable = keyof typeof CATALOGUE_COLUMNS;

/**
 * Of a query of several words, the matches of its rarest word are read first and checked for the
 * others; at most this many (so two common words cost the same as one). Fewer than this: every
 * match is checked, and none is missed.
 */
const RAREST_WORD_MATCHES_READ = 2000;

const startsWith = (word: string) => `${escapeLike(word)}%`;

/**
 * The least string above every string that starts with `prefix` in "C" order (code point order:
 * UTF-8 bytes compare as their code points do); undefined when there is none.
 */
function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    let next = points.pop()!.codePointAt(0)! + 1;
    if (next === 0xd800) next = 0xe000; // surrogates are no characters
    if (next <= 0x10ffff) return points.join('') + String.fromCodePoint(next);
  }
  return undefined;
}

/**
 * Names of `table` that start with the query, in folded order, the exact one first. A range of
 * the folded-name B-tree rather than LIKE: the index condition is then the whole test, where
 * LIKE's filter folded every name read again (a call of `earshot_fold` per row).
 */
function namePrefixMatches(table: CatalogueTable, query: Folded, columns: SQL, count: number) {
  const name = sql.raw(`(earshot_fold(${table}.name) COLLATE "C")`);
  const end = prefixEnd(query.text);
  return sql`SELECT ${columns} FROM ${sql.raw(table)}
             WHERE ${name} >= ${query.text} ${end === undefined ? sql`` : sql`AND ${name} < ${end}`}
             ORDER BY ${name} LIMIT ${count}`;
}

/**
 * The query word with the fewest items having a word it starts (counted up to
 * `RAREST_WORD_MATCHES_READ`; ties go to the longer word, usually the rarer); undefined when
 * `limit` names start with the query, so that no word match is read (`rankedCatalogue`).
 */
async function rarestWord(
  db: Db,
  table: CatalogueTable,
  query: Folded,
  limit: number,
  words: readonly string[],
) {
  if (words.length === 1) return words[0]!;
  const [wordsTable] = WORDS[table];
  const counts = words.map(
    (word) => sql`(SELECT count(*)::int FROM (SELECT 1 FROM ${sql.raw(wordsTable)}
                    WHERE word LIKE ${startsWith(word)}
                    ORDER BY word LIMIT ${RAREST_WORD_MATCHES_READ}) m)`,
  );
  const result = await db.execute<{ counts: number[] | null }>(sql`
    SELECT CASE WHEN (SELECT count(*) FROM (${namePrefixMatches(table, query, sql`1`, limit)}) p)
                     < ${limit}
                THEN ARRAY[${sql.join(counts, sql`, `)}] END AS counts`);
  const matches = result.rows[0]!.counts;
  if (!matches) return undefined;
  const order = words
    .map((word, i) => ({ word, matches: matches[i]! }))
    .sort((a, b) => a.matches - b.matches || b.word.length - a.word.length);
  return order[0]!.word;
}

/**
 * Ids of items with a word starting with each of `words`, at most `CANDIDATES_PER_KIND`: a range
 * of the word index for `rarest`, read in index order (the planner would otherwise scan the
 * table for a common word, and all of it for a rare one), each of its items probed for the other
 * words. A probe is a scalar subquery, not EXISTS: as a semi-join the planner hashes every match
 * of the other word, ten thousand rows for a common one.
 */
function wordMatches(table: CatalogueTable, words: readonly string[], rarest: string): SQL {
  const [wordsTable, key] = WORDS[table].map((name) => sql.raw(name));
  const others = words.filter((word, i) => i !== words.indexOf(rarest));
  const alsoHas = others.map(
    (word) => sql`AND (SELECT true FROM ${wordsTable} o
                       WHERE o.${key} = m.${key} AND o.word LIKE ${startsWith(word)} LIMIT 1)`,
  );
  return sql`
    SELECT m.${key} FROM (SELECT ${key} FROM ${wordsTable} WHERE word LIKE ${startsWith(rarest)}
                          ORDER BY word, ${key} LIMIT ${RAREST_WORD_MATCHES_READ}) m
    WHERE true ${sql.join(alsoHas, sql` `)}
    LIMIT ${CANDIDATES_PER_KIND}`;
}

/**
 * One catalogue table's best matches (its `CATALOGUE_COLUMNS`): names starting with the query
 * (through the folded-name B-tree) and items with every query word (`words`, through the word
 * index), ranked by name match, then by how many Earshot users play them, then Spotify's
 * popularity where known. When `limit` names start with the query, they are the answer whatever
 * the word matches' listeners, so word matches are not read (a name that starts with the query
 * is one of the prefix candidates unless there are more than `CANDIDATES_PER_KIND` of them; then
 * it ranks among the first of them in folded order, decision 0015). Listeners are counted only
 * where they can decide: in the name ranks up to that of the `limit`-th candidate (a count is
 * most of a candidate's cost).
 */
async function rankedCatalogue<Row extends Record<string, unknown>>(
  db: Db,
  table: CatalogueTable,
  query: Folded,
  limit: number,
  words: readonly string[],
) {
  const columns = sql.raw(CATALOGUE_COLUMNS[table].join(', '));
  const candidateColumns = sql`${columns}, ${foldedSql(sql.raw('name'))} AS folded`;
  const [listens, key] = LISTENS[table];
  const popularity = table === 'albums' ? sql`NULL::int` : sql.raw('t.popularity');
  const rarest = await rarestWord(db, table, query, limit, words);
  const wordCandidates =
    rarest === undefined
      ? sql``
      : sql`UNION
            SELECT ${candidateColumns} FROM ${sql.raw(table)}
            WHERE (SELECT count(*) FROM prefix) < ${limit}
              AND id IN (${wordMatches(table, words, rarest)})`;
  return db.execute<Row>(sql`
    WITH prefix AS (${namePrefixMatches(table, query, candidateColumns, CANDIDATES_PER_KIND)}),
    candidates AS (
      SELECT *, ${nameRank(sql.raw('c.folded'), query)} AS name_rank FROM (
        SELECT * FROM prefix ${wordCandidates}
      ) c
    )
    SELECT ${columns} FROM candidates t
    WHERE t.name_rank <= coalesce(
      (SELECT name_rank FROM candidates ORDER BY name_rank OFFSET ${limit - 1} LIMIT 1), 3)
    ORDER BY t.name_rank,
             (SELECT count(*) FROM ${sql.raw(listens)} s WHERE s.${sql.raw(key)} = t.id) DESC,
             ${popularity} DESC NULLS LAST, t.folded, t.id
    LIMIT ${limit}`);
}

async function storedTracks(db: Db, query: Folded, limit: number): Promise<TrackResult[]> {
  const ranked = await rankedCatalogue<{ id: string }>(
    db,
    'tracks',
    query,
    limit,
    query.trackWords,
  );
  return trackResults(
    db,
    ranked.rows.map((row) => row.id),
  );
}

async function trackResults(db: Db, ids: readonly string[]): Promise<TrackResult[]> {
  const summaries = await trackSummaries(db, ids);
  return ids.flatMap((id) => {
    const track = summaries.get(id);
    return track ? [{ type: 'track' as const, id, data: { track } }] : [];
  });
}

async function storedAlbums(db: Db, query: Folded, limit: number): Promise<AlbumResult[]> {
  const rows = await rankedCatalogue<{ id: string; name: string; picture: string | null }>(
    db,
    'albums',
    query,
    limit,
    query.words,
  );
  return rows.rows.map(({ id, name, picture }) => ({
    type: 'album' as const,
    id,
    data: { picture, name },
  }));
}

async function storedArtists(db: Db, query: Folded, limit: number): Promise<ArtistResult[]> {
  const rows = await rankedCatalogue<{
    id: string;
    name: string;
    picture: string | null;
    genres: string[] | null;
  }>(db, 'artists', query, limit, query.words);
  return rows.rows.map(({ id, name, picture, genres }) => ({
    type: 'artist' as const,
    id,
    data: { picture, name, genres: genres ?? [] },
  }));
}

/** People by name or username: exact and prefix matches, then the viewer's friends, then name. */
async function storedUsers(
  db: Db,
  query: Folded,
  limit: number,
  viewerId: string | undefined,
): Promise<UserResult[]> {
  const prefix = `${escapeLike(query.text)}%`;
  const friendsFirst = viewerId ? sql`u.id IN (${friendIdsQuery(viewerId)}) DESC,` : sql``;
  const rows = await db.execute<{
    id: string;
    name: string;
    username: string;
    picture: string | null;
  }>(sql`
    SELECT u.id, u.name, u.username, u.picture FROM users u
    WHERE ${everyWordStarts(sql`earshot_fold(u.name || ' ' || u.username)`, query.words)}
    ORDER BY CASE WHEN earshot_fold(u.name) = ${query.text} OR lower(u.username) = ${query.text}
                    THEN 0
                  WHEN earshot_fold(u.name) LIKE ${prefix} OR lower(u.username) LIKE ${prefix}
                    THEN 1
                  ELSE 2 END,
             ${friendsFirst} earshot_fold(u.name), u.id
    LIMIT ${limit}`);
  return rows.rows.map(({ id, name, username, picture }) => ({
    type: 'user' as const,
    id,
    data: { picture, name, username },
  }));
}

/** Adds `extra` results after `stored` (those not already there), up to `limit`. */
function filled<T extends { id: string }>(stored: T[], extra: readonly T[], limit: number): T[] {
  const seen = new Set(stored.map((result) => result.id));
  const more = extra.filter((result) => !seen.has(result.id));
  return [...stored, ...more].slice(0, limit);
}

const present = <T>(item: T | null): item is T => item !== null;

/** Spotify's results, stored in the catalogue first (they are then Earshot's own rows). */
async function storeSpotifyResults(db: Db, page: SearchPage) {
  const tracks = (page.tracks?.items ?? []).filter(present);
  const albums = (page.albums?.items ?? []).filter(present);
  const artists = (page.artists?.items ?? []).filter(present);
  const trackIds = await storeTracks(db, tracks);
  await storeAlbums(db, albums);
  await storeArtists(db, artists);
  const albumRows = await db.execute<{ id: string; picture: string | null }>(
    sql`SELECT id, picture FROM albums WHERE id = ANY(${sql.param(albums.map((a) => a.id))}::text[])`,
  );
  const albumPictures = new Map(albumRows.rows.map((row) => [row.id, row.picture]));
  const artistRows = await db.execute<{ id: string; picture: string | null; genres: string[] }>(
    sql`SELECT id, picture, coalesce(genres, '{}') AS genres FROM artists
        WHERE id = ANY(${sql.param(artists.map((a) => a.id))}::text[])`,
  );
  const artistRowsById = new Map(artistRows.rows.map((row) => [row.id, row]));
  return {
    tracks: await trackResults(db, trackIds),
    albums: albums.map((album): AlbumResult => ({
      type: 'album',
      id: album.id,
      data: { picture: albumPictures.get(album.id) ?? null, name: album.name },
    })),
    artists: artists.map((artist): ArtistResult => ({
      type: 'artist',
      id: artist.id,
      data: {
        picture: artistRowsById.get(artist.id)?.picture ?? null,
        name: artist.name,
        genres: artistRowsById.get(artist.id)?.genres ?? [],
      },
    })),
  };
}

/**
 * Tracks, albums, artists and people matching `text`, case and accents ignored: what Earshot
 * stores first, then, for a signed-in viewer, Spotify's search for the types the store has too
 * few of (stored on the way; once per query for a while). When Spotify fails, the stored results are the answer; with none
 * at all, the failure is (the error handler tells it).
 */
export async function search(db: Db, params: SearchParams): Promise<SearchResults> {
  const { limit } = params;
  const query = await foldQuery(db, params.text);
  // Nothing left to match once folded (the query was only marks, say).
  if (query.words.length === 0 || query.trackWords.length === 0) {
    return { tracks: [], albums: [], artists: [], users: [] };
  }
  const stored: SearchResults = {
    tracks: await storedTracks(db, query, limit),
    albums: await storedAlbums(db, query, limit),
    artists: await storedArtists(db, query, limit),
    users: await storedUsers(db, query, limit, params.viewerId),
  };
  const short = (['track', 'album', 'artist'] as const).filter(
    (type) => stored[`${type}s`].length < limit,
  );
  const { fill } = params;
  if (!fill || short.length === 0 || fill.recent.answered(query.text, limit)) return stored;
  let found;
  try {
    const page = await fill.spotify.search(fill.auth, params.text, short, limit);
    found = await storeSpotifyResults(db, page);
    fill.recent.remember(query.text, limit);
  } catch (error) {
    const upstream = error instanceof SpotifyError || error instanceof SpotifyDisconnectedError;
    const anyStored = Object.values(stored).some((list) => list.length > 0);
    if (upstream && anyStored) return stored;
    throw error;
  }
  return {
    tracks: filled(stored.tracks, found.tracks, limit),
    albums: filled(stored.albums, found.albums, limit),
    artists: filled(stored.artists, found.artists, limit),
    users: stored.users,
  };
}
