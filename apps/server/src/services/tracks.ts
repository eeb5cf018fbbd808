import type { TrackSummary } from '@earshot/contract/track';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

interface TrackSummaryRow extends Record<string, unknown> {
  id: string;
  uid: string;
  title: string;
  artists: { id: string; name: string }[];
  album_id: string | null;
  album_name: string | null;
  album_picture: string | null;
  release_date: string | null;
  duration: number | null;
  popularity: number | null;
}

/** The shown form of tracks by id, with credited artists in order and the album. */
export async function trackSummaries(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, TrackSummary>> {
  if (ids.length === 0) return new Map();
  const result = await db.execute<TrackSummaryRow>(sql`
    SELECT t.id, t.uid, t.name AS title, t.duration_ms AS duration, t.popularity,
           al.id AS album_id, al.name AS album_name, al.picture AS album_picture, al.release_date,
           coalesce((SELECT json_agg(json_build_object('id', a.id, 'name', a.name) ORDER BY ta.position)
                     FROM track_artists ta JOIN artists a ON a.id = ta.artist_id
                     WHERE ta.track_id = t.id), '[]') AS artists
    FROM tracks t LEFT JOIN albums al ON al.id = t.album_id
    WHERE t.id = ANY(${sql.param([...ids])}::text[])`);
  return new Map(
    result.rows.map((row) => [
      row.id,
      {
        id: row.id,
        uid: row.uid,
        title: row.title,
        artists: row.artists,
        album:
          row.album_id && row.album_name
            ? {
                id: row.album_id,
                name: row.album_name,
                picture: row.album_picture,
                release_date: row.release_date,
              }
            : null,
        duration: row.duration,
        popularity: row.popularity,
      },
    ]),
  );
}
