import type { ProfileStats, TopArtist, TopSong } from '@earshot/contract/profile';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { trackSummaries } from './tracks';

const TOP_LIMIT = 10;
const RECENT_DAYS = 30;
const CHART_WEEKS = 52;

interface TotalsRow extends Record<string, unknown> {
  total_plays: number;
  total_ms: number;
  recent_ms: number;
  artists: number;
  genre: string | null;
  decade: string | null;
  likes: number;
  playlists: number;
  tracking_since: string | null;
}

interface HighlightsRow extends Record<string, unknown> {
  top_all_time: { track_id: string; plays: number }[] | null;
  top_recent: { track_id: string; plays: number }[] | null;
  top_artists: TopArtist[] | null;
  weekly: { week: string; plays: number }[] | null;
}

/**
 * The tracks that count for a user: played, and neither ignored by them or globally, nor by an
 * ignored artist. Aggregates come from `user_track_stats` (kept by a trigger), so the cost grows
 * with the tracks a user knows, not with their plays.
 */
const countedTracks = (userId: string) => sql`
  ignored_uids AS (
    SELECT uid FROM ignored_tracks WHERE user_id = ${userId}
    UNION SELECT uid FROM global_ignored_tracks
  ),
  ignored_artist_ids AS (
    SELECT artist_id FROM ignored_artists WHERE user_id = ${userId}
    UNION SELECT artist_id FROM global_ignored_artists
  ),
  counted AS MATERIALIZED (
    SELECT s.track_id, s.plays, s.ms_played, t.uid, t.album_id
    FROM user_track_stats s JOIN tracks t ON t.id = s.track_id
    WHERE s.user_id = ${userId}
      AND t.uid NOT IN (SELECT uid FROM ignored_uids)
      AND NOT EXISTS (SELECT 1 FROM track_artists ta
                      WHERE ta.track_id = s.track_id
                        AND ta.artist_id IN (SELECT artist_id FROM ignored_artist_ids))
  ),
  recent AS MATERIALIZED (
    SELECT d.track_id, sum(d.plays)::int AS plays, sum(d.ms_played) AS ms
    FROM user_track_days d
    WHERE d.user_id = ${userId} AND d.day > current_date - ${RECENT_DAYS}::int
      AND d.track_id IN (SELECT track_id FROM counted)
    GROUP BY d.track_id
  ),
  artist_plays AS MATERIALIZED (
    SELECT ta.artist_id, sum(c.plays)::int AS plays
    FROM counted c JOIN track_artists ta ON ta.track_id = c.track_id
    GROUP BY ta.artist_id
  )`;

/** Songs (uids) ranked by plays, each shown as its most played version. */
const topSongs = (source: string) =>
  sql.raw(`(SELECT json_agg(x ORDER BY x.plays DESC) FROM (
      SELECT (array_agg(src.track_id ORDER BY src.plays DESC))[1] AS track_id,
             sum(src.plays)::int AS plays
      FROM ${source} src JOIN tracks t ON t.id = src.track_id
      GROUP BY t.uid ORDER BY plays DESC, min(src.track_id) LIMIT ${TOP_LIMIT}) x)`);

export async function profileStats(
  db: Db,
  userId: string,
  withHighlights: boolean,
): Promise<ProfileStats> {
  const totals = await db.execute<TotalsRow>(sql`
    WITH ${countedTracks(userId)}
    SELECT
      (SELECT coalesce(sum(plays), 0)::int FROM counted) AS total_plays,
      (SELECT coalesce(sum(ms_played), 0)::float8 FROM counted) AS total_ms,
      (SELECT coalesce(sum(ms), 0)::float8 FROM recent) AS recent_ms,
      (SELECT count(*)::int FROM artist_plays) AS artists,
      (SELECT genre FROM artist_plays ap JOIN artists a ON a.id = ap.artist_id,
              unnest(a.genres) AS genre
       GROUP BY genre ORDER BY sum(ap.plays) DESC, genre LIMIT 1) AS genre,
      (SELECT substr(al.release_date, 1, 3) || '0s' FROM counted c JOIN albums al ON al.id = c.album_id
       WHERE al.release_date ~ '^[0-9]{4}'
       GROUP BY 1 ORDER BY sum(c.plays) DESC, 1 DESC LIMIT 1) AS decade,
      (SELECT count(*)::int FROM saved_tracks st JOIN tracks t ON t.id = st.track_id
       WHERE st.user_id = ${userId}
         AND t.uid NOT IN (SELECT uid FROM ignored_uids)
         AND NOT EXISTS (SELECT 1 FROM track_artists ta WHERE ta.track_id = st.track_id
                         AND ta.artist_id IN (SELECT artist_id FROM ignored_artist_ids))) AS likes,
      (SELECT count(*)::int FROM user_playlists WHERE user_id = ${userId}) AS playlists,
      (SELECT least((SELECT min(played_at) FROM plays WHERE user_id = ${userId}),
                    (SELECT tracking_since FROM spotify_accounts WHERE user_id = ${userId})))
        AS tracking_since`);
  const t = totals.rows[0]!;
  const stats: ProfileStats = {
    total_likes: t.likes,
    total_plays: t.total_plays,
    total_listening_time_sec: Math.round(t.total_ms / 1000),
    listening_time_last_30_days_sec: Math.round(t.recent_ms / 1000),
    tracking_since: t.tracking_since ? new Date(t.tracking_since).toISOString() : null,
    most_played_decade: t.decade,
    most_played_genre: t.genre,
    playlists: t.playlists,
    artists: t.artists,
    top_songs_30_days: null,
    top_songs_all_time: null,
    top_artists: null,
    weekly_plays: null,
  };
  if (!withHighlights) return stats;

  const highlights = await db.execute<HighlightsRow>(sql`
    WITH ${countedTracks(userId)}
    SELECT
      ${topSongs('counted')} AS top_all_time,
      ${topSongs('recent')} AS top_recent,
      (SELECT json_agg(x ORDER BY x.play_count DESC, x.name) FROM (
         SELECT a.id, a.name, a.picture, ap.plays AS play_count
         FROM artist_plays ap JOIN artists a ON a.id = ap.artist_id
         ORDER BY ap.plays DESC, a.name LIMIT ${TOP_LIMIT}) x) AS top_artists,
      (SELECT json_agg(json_build_object('week', w.week, 'plays', coalesce(p.plays, 0)) ORDER BY w.week)
       FROM (SELECT to_char(date_trunc('week', current_date - 7 * n), 'YYYY-MM-DD') AS week
             FROM generate_series(0, ${CHART_WEEKS - 1}::int) AS n) w
       LEFT JOIN (SELECT to_char(date_trunc('week', d.day), 'YYYY-MM-DD') AS week,
                         sum(d.plays)::int AS plays
                  FROM user_track_days d
                  WHERE d.user_id = ${userId} AND d.day > current_date - 7 * ${CHART_WEEKS}::int
                    AND d.track_id IN (SELECT track_id FROM counted)
                  GROUP BY 1) p ON p.week = w.week) AS weekly`);
  const h = highlights.rows[0]!;
  const ranked = [...(h.top_all_time ?? []), ...(h.top_recent ?? [])];
  const summaries = await trackSummaries(
    db,
    ranked.map((entry) => entry.track_id),
  );
  const songs = (list: { track_id: string; plays: number }[] | null): TopSong[] =>
    (list ?? []).flatMap((entry) => {
      const track = summaries.get(entry.track_id);
      return track ? [{ track, play_count: entry.plays }] : [];
    });
  return {
    ...stats,
    top_songs_all_time: songs(h.top_all_time),
    top_songs_30_days: songs(h.top_recent),
    top_artists: h.top_artists ?? [],
    weekly_plays: h.weekly ?? [],
  };
}

/**
 * How much of their listening two people share, 0–100: the cosine similarity of their plays per
 * artist (over everything each has heard).
 */
export async function tasteMatch(db: Db, a: string, b: string): Promise<number> {
  const perArtist = (userId: string) => sql`
    SELECT ta.artist_id, sum(s.plays)::float8 AS plays
    FROM user_track_stats s JOIN track_artists ta ON ta.track_id = s.track_id
    WHERE s.user_id = ${userId} GROUP BY ta.artist_id`;
  const result = await db.execute<{ similarity: number | null }>(sql`
    WITH a AS (${perArtist(a)}), b AS (${perArtist(b)})
    SELECT (SELECT sum(a.plays * b.plays) FROM a JOIN b USING (artist_id))
         / nullif(sqrt((SELECT sum(plays * plays) FROM a)) * sqrt((SELECT sum(plays * plays) FROM b)), 0)
         AS similarity`);
  return Math.round((result.rows[0]?.similarity ?? 0) * 100);
}
