import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uniqueById } from '../catalog';
import { titleKey } from '../song-identity';
import { foldText, trackSearchText } from '../text';
import type { ImportedPlay } from './rows';

/**
 * Statements carry at most this many plays: a whole Spotify file (16,300 rows at most) goes in
 * one, so the per-statement work (the aggregate trigger's joins) is paid once per file.
 */
const CHUNK = 20_000;
/**
 * A polled play and the same play in the export may disagree on the end time by a few seconds;
 * two real plays of one song end at least 30 s apart. Within this window they are one play.
 */
const SAME_PLAY_WINDOW_SEC = 15;

/** Catalogue ids for things known only by name: stable, and never a Spotify id (those are base62). */
const nameId = (text: string) =>
  `n:${createHash('sha256').update(text).digest('base64url').slice(0, 20)}`;

export interface StoredChunk {
  added: number;
  duplicates: number;
}

/**
 * What one import has already written to the catalogue. A 10-year history repeats a few
 * thousand songs a million times: each track and artist is named, keyed and sent once per
 * import, not once per play. Only for the import that wrote them (their transactions committed,
 * or the import failed and this is dropped with it).
 */
export class ImportCatalogue {
  /** Export identity (track URI, or name and artist) → catalogue track id. */
  readonly trackIds = new Map<string, string>();
  readonly tracks = new Set<string>();
  readonly artists = new Set<string>();
}

interface NewTrack {
  id: string;
  name: string;
  key: string;
  search: string;
  artistId: string;
  namedOnly: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

type NamedTrack = Omit<ImportedPlay, 'playedAt' | 'msPlayed'>;

/**
 * A file's plays in columns: times and durations as plain numbers, each track named once. A
 * file's plays live until the file is stored, long enough for the collector to move them to the
 * old generation: as one object (and its strings) per play, a 10-year import left ~150 MB of
 * them behind between collections; as columns, a few arrays.
 */
export class PlayColumns {
  readonly times: number[] = [];
  readonly msPlayed: number[] = [];
  /** Index into `tracks` of each play's track. */
  readonly trackRefs: number[] = [];
  readonly tracks: NamedTrack[] = [];
  readonly #refs = new Map<string, number>();

  static of(plays: readonly ImportedPlay[]): PlayColumns {
    const columns = new PlayColumns();
    for (const play of plays) columns.add(play);
    return columns;
  }

  get length(): number {
    return this.times.length;
  }

  add({ playedAt, msPlayed, ...track }: ImportedPlay): void {
    const identity = track.trackId ?? `${track.trackName}\u0000${track.artistName}`;
    let ref = this.#refs.get(identity);
    if (ref === undefined) {
      ref = this.tracks.push(track) - 1;
      this.#refs.set(identity, ref);
    }
    this.times.push(playedAt.getTime());
    this.msPlayed.push(msPlayed);
    this.trackRefs.push(ref);
  }
}

/**
 * Creates the artists and tracks an import names that the catalogue does not have yet, in id
 * order as the sync writes them.
 */
async function storeCatalogueEntries(
  tx: Tx,
  newArtists: { id: string; name: string }[],
  newTracks: NewTrack[],
): Promise<void> {
  const artists = uniqueById(newArtists, (artist) => artist.id);
  const tracks = uniqueById(newTracks, (track) => track.id);
  if (artists.length > 0) {
    await tx.execute(sql`
      INSERT INTO artists (id, name, enriched_at)
      SELECT id, name, now()
      FROM unnest(${sql.param(artists.map((artist) => artist.id))}::text[],
                  ${sql.param(artists.map((artist) => artist.name))}::text[]) AS a(id, name)
      ON CONFLICT (id) DO NOTHING`);
  }
  if (tracks.length > 0) {
    // Credits only for the tracks created here: a track the catalogue already has keeps its
    // own (announced catalogue changes come from updates and removed credits only).
    await tx.execute(sql`
      WITH created AS (
      INSERT INTO tracks (id, uid, name, title_key, search_text, enriched_at)
      SELECT n.id,
             coalesce((SELECT t.uid FROM tracks t WHERE t.title_key = n.key LIMIT 1), n.id),
             n.name, n.key, n.search, CASE WHEN n.named_only THEN now() END
      FROM unnest(${sql.param(tracks.map((track) => track.id))}::text[],
                  ${sql.param(tracks.map((track) => track.name))}::text[],
                  ${sql.param(tracks.map((track) => track.key))}::text[],
                  ${sql.param(tracks.map((track) => track.search))}::text[],
                  ${sql.param(tracks.map((track) => track.namedOnly))}::boolean[])
             AS n(id, name, key, search, named_only)
      WHERE NOT EXISTS (SELECT 1 FROM tracks e WHERE e.id = n.id)
      ON CONFLICT (id) DO NOTHING
      RETURNING id)
      INSERT INTO track_artists (track_id, position, artist_id)
      SELECT c.id, 0, c.artist_id
      FROM unnest(${sql.param(tracks.map((track) => track.id))}::text[],
                  ${sql.param(tracks.map((track) => track.artistId))}::text[]) AS c(id, artist_id)
      WHERE c.id IN (SELECT id FROM created)
      ON CONFLICT DO NOTHING`);
  }
}

/**
 * Stores imported plays at once from the export's own names, so they show everywhere right away:
 * tracks without a catalogue entry are created from the row (the enrichment job fetches the full
 * object of those with a Spotify id later), and Account-data rows, which have no URI, get a track
 * keyed by name that joins the real versions through the song uid. Plays Earshot already has
 * (same song within a few seconds, or the same instant) are counted as duplicates, not added.
 * Pass one `catalogue` for all the files of an import.
 */
export async function storeImportedPlays(
  tx: Tx,
  userId: string,
  source: 'extended_history' | 'account_data',
  plays: PlayColumns,
  catalogue: ImportCatalogue = new ImportCatalogue(),
): Promise<StoredChunk> {
  const result: StoredChunk = { added: 0, duplicates: 0 };
  // Each of the file's tracks is resolved once, not once per play.
  const artists: { id: string; name: string }[] = [];
  const tracks: NewTrack[] = [];
  const trackIdOfRef = plays.tracks.map((play) => {
    const identity = play.trackId ?? `${play.trackName}\u0000${play.artistName}`;
    let trackId = catalogue.trackIds.get(identity);
    if (trackId !== undefined) return trackId;
    const key = titleKey(play.trackName, play.artistName);
    const artistId = nameId(`artist|${foldText(play.artistName)}`);
    trackId = play.trackId ?? nameId(`track|${key}`);
    catalogue.trackIds.set(identity, trackId);
    if (!catalogue.artists.has(artistId)) {
      catalogue.artists.add(artistId);
      artists.push({ id: artistId, name: play.artistName });
    }
    if (!catalogue.tracks.has(trackId)) {
      catalogue.tracks.add(trackId);
      tracks.push({
        id: trackId,
        name: play.trackName,
        key,
        search: trackSearchText(play.trackName, play.albumName, [play.artistName]),
        artistId,
        namedOnly: play.trackId === null,
      });
    }
    return trackId;
  });
  await storeCatalogueEntries(tx, artists, tracks);

  for (let start = 0; start < plays.length; start += CHUNK) {
    const end = Math.min(plays.length, start + CHUNK);
    const times = plays.times.slice(start, end);
    const trackIds: string[] = [];
    const msPlayed = plays.msPlayed.slice(start, end);
    let earliest = Number.POSITIVE_INFINITY;
    let latest = Number.NEGATIVE_INFINITY;
    for (let index = start; index < end; index++) {
      const time = plays.times[index]!;
      if (time < earliest) earliest = time;
      if (time > latest) latest = time;
      trackIds.push(trackIdOfRef[plays.trackRefs[index]!]!);
    }

    // Duplicates are looked for among the user's plays in the chunk's own time span only (a
    // file of an export covers some months): comparing every chunk with the user's whole
    // history made a 10-year import quadratic. Most chunks meet no earlier play at all, and
    // skip the comparison.
    const span = sql`p.user_id = ${userId}
      AND p.played_at BETWEEN ${iso(earliest - SAME_PLAY_WINDOW_SEC * 1000)}::timestamptz
                          AND ${iso(latest + SAME_PLAY_WINDOW_SEC * 1000)}::timestamptz`;
    const overlap = await tx.execute<{ found: boolean }>(
      sql`SELECT EXISTS (SELECT 1 FROM plays p WHERE ${span}) AS found`,
    );
    // Times travel as epoch milliseconds: numbers parse far faster than timestamp text.
    const rows = sql`(SELECT to_timestamp(at_ms / 1000) AS played_at, track_id, ms_played
                      FROM unnest(${sql.param(times)}::float8[],
                                  ${sql.param(trackIds)}::text[],
                                  ${sql.param(msPlayed)}::int[]) AS u(at_ms, track_id, ms_played)) s`;
    const notNearAnother = overlap.rows[0]?.found
      ? sql`WHERE NOT EXISTS (
          SELECT 1 FROM plays p JOIN tracks pt ON pt.id = p.track_id, tracks st
          WHERE ${span} AND st.id = s.track_id AND pt.uid = st.uid
            AND p.played_at BETWEEN s.played_at - make_interval(secs => ${SAME_PLAY_WINDOW_SEC})
                                AND s.played_at + make_interval(secs => ${SAME_PLAY_WINDOW_SEC}))`
      : sql``;
    const inserted = await tx.execute<{ added: number }>(sql`
      WITH added AS (
        INSERT INTO plays (user_id, played_at, track_id, source, ms_played)
        SELECT ${userId}, s.played_at, s.track_id, ${source}, s.ms_played
        FROM ${rows}
        ${notNearAnother}
        ON CONFLICT DO NOTHING
        RETURNING 1)
      SELECT count(*)::int AS added FROM added`);
    const added = inserted.rows[0]?.added ?? 0;
    result.added += added;
    result.duplicates += end - start - added;
  }
  return result;
}
