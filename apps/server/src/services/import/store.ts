import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { titleKey } from '../song-identity';
import { foldText, trackSearchText } from '../text';
import type { ImportedPlay } from './rows';

/** Statements carry at most this many rows (unnest arrays stay a few hundred KB). */
const CHUNK = 5000;
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
 * Stores imported plays at once from the export's own names, so they show everywhere right away:
 * tracks without a catalogue entry are created from the row (the enrichment job fetches the full
 * object of those with a Spotify id later), and Account-data rows, which have no URI, get a track
 * keyed by name that joins the real versions through the song uid. Plays Earshot already has
 * (same song within a few seconds, or the same instant) are counted as duplicates, not added.
 */
export async function storeImportedPlays(
  tx: Tx,
  userId: string,
  source: 'extended_history' | 'account_data',
  plays: readonly ImportedPlay[],
): Promise<StoredChunk> {
  const result: StoredChunk = { added: 0, duplicates: 0 };
  for (let start = 0; start < plays.length; start += CHUNK) {
    const chunk = plays.slice(start, start + CHUNK);
    const artists = new Map<string, string>();
    const tracks = new Map<
      string,
      { name: string; key: string; search: string; artistId: string; namedOnly: boolean }
    >();
    const trackIds = chunk.map((play) => {
      const key = titleKey(play.trackName, play.artistName);
      const artistId = nameId(`artist|${foldText(play.artistName)}`);
      artists.set(artistId, play.artistName);
      const id = play.trackId ?? nameId(`track|${key}`);
      if (!tracks.has(id)) {
        tracks.set(id, {
          name: play.trackName,
          key,
          search: trackSearchText(play.trackName, play.albumName, [play.artistName]),
          artistId,
          namedOnly: play.trackId === null,
        });
      }
      return id;
    });

    await tx.execute(sql`
      INSERT INTO artists (id, name, enriched_at)
      SELECT id, name, now() FROM unnest(${sql.param([...artists.keys()])}::text[],
                                         ${sql.param([...artists.values()])}::text[]) AS a(id, name)
      ON CONFLICT (id) DO NOTHING`);
    const rows = [...tracks.entries()];
    await tx.execute(sql`
      INSERT INTO tracks (id, uid, name, title_key, search_text, enriched_at)
      SELECT n.id,
             coalesce((SELECT t.uid FROM tracks t WHERE t.title_key = n.key LIMIT 1), n.id),
             n.name, n.key, n.search, CASE WHEN n.named_only THEN now() END
      FROM unnest(${sql.param(rows.map(([id]) => id))}::text[],
                  ${sql.param(rows.map(([, t]) => t.name))}::text[],
                  ${sql.param(rows.map(([, t]) => t.key))}::text[],
                  ${sql.param(rows.map(([, t]) => t.search))}::text[],
                  ${sql.param(rows.map(([, t]) => t.namedOnly))}::boolean[])
             AS n(id, name, key, search, named_only)
      ON CONFLICT (id) DO NOTHING`);
    await tx.execute(sql`
      INSERT INTO track_artists (track_id, position, artist_id)
      SELECT id, 0, artist_id FROM unnest(${sql.param(rows.map(([id]) => id))}::text[],
                                          ${sql.param(rows.map(([, t]) => t.artistId))}::text[])
             AS c(id, artist_id)
      ON CONFLICT DO NOTHING`);
    const inserted = await tx.execute<{ added: number }>(sql`
      WITH s AS (
        SELECT * FROM unnest(${sql.param(chunk.map((play) => play.playedAt.toISOString()))}::timestamptz[],
                             ${sql.param(trackIds)}::text[],
                             ${sql.param(chunk.map((play) => play.msPlayed))}::int[])
               AS s(played_at, track_id, ms_played)
      ), added AS (
        INSERT INTO plays (user_id, played_at, track_id, source, ms_played)
        SELECT ${userId}, s.played_at, s.track_id, ${source}, s.ms_played
        FROM s JOIN tracks st ON st.id = s.track_id
        WHERE NOT EXISTS (
          SELECT 1 FROM plays p JOIN tracks pt ON pt.id = p.track_id
          WHERE p.user_id = ${userId}
            AND p.played_at BETWEEN s.played_at - make_interval(secs => ${SAME_PLAY_WINDOW_SEC})
                                AND s.played_at + make_interval(secs => ${SAME_PLAY_WINDOW_SEC})
            AND pt.uid = st.uid)
        ON CONFLICT DO NOTHING
        RETURNING 1)
      SELECT count(*)::int AS added FROM added`);
    const added = inserted.rows[0]?.added ?? 0;
    result.added += added;
    result.duplicates += chunk.length - added;
  }
  return result;
}
