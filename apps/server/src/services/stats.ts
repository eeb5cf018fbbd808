import type { ProfileStats, TopArtist, TopSong } from '@earshot/contract/profile';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { countedLikes, ignoredTrackIds } from './ignore';
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
 * What does not count for a user: songs (uids) and artists they or the admins ignored. The
 * aggregates (kept by triggers as plays arrive) include everything, so a profile takes out the
 * plays of `excluded`, the tracks among those that the user played: few, and found from the
 * ignores' side. Nothing here reads the user's history or grows with the tracks they know.
 */
const exclusions = (userId: string) => sql`
  ignored_track_ids AS MATERIALIZED (${ignoredTrackIds(userId)}),
  excluded AS MATERIALIZED (
    SELECT s.track_id, s.plays, s.ms_played, t.uid, t.album_id
    FROM ignored_track_ids x
    JOIN user_track_stats s ON s.user_id = ${userId} AND s.track_id = x.id
    JOIN tracks t ON t.id = x.id
  ),
  artist_plays AS MATERIALIZED (
    SELECT a.artist_id, (a.plays - coalesce(x.plays, 0))::int AS plays
    FROM user_artist_stats a
    LEFT JOIN (SELECT ta.artist_id, sum(e.plays) AS plays
               FROM excluded e JOIN track_artists ta ON ta.track_id = e.track_id
               GROUP BY ta.artist_id) x ON x.artist_id = a.artist_id
    WHERE a.user_id = ${userId} AND a.plays > coalesce(x.plays, 0)
  )`;

/** Per-day plays since `days` ago, without the excluded tracks' (for ranges of days). */
const countedDays = (userId: string, days: number) => sql`
  SELECT day, plays, ms_played FROM user_days
  WHERE user_id = ${userId} AND day > current_date - ${days}::int
  UNION ALL
  SELECT d.day, -d.plays, -d.ms_played
  FROM excluded e JOIN user_track_days d
    ON d.user_id = ${userId} AND d.track_id = e.track_id AND d.day > current_date - ${days}::int`;

/**
 * Songs (uids) ranked by plays, each shown as its most played version (the arg-max is a max over
 * zero-padded plays and the id, which keeps the aggregation hashed rather than sorted).
 */
const topSongs = (source: string) =>
  sql.raw(`(SELECT json_agg(json_build_object('track_id', x.track_id, 'plays', x.plays)
                            ORDER BY x.plays DESC, x.first_id) FROM (
      SELECT substr(max(to_char(src.plays, 'FM0000000000') || src.track_id), 11) AS track_id,
             sum(src.plays)::int AS plays, min(src.track_id) AS first_id
      FROM ${source} src JOIN tracks t ON t.id = src.track_id
      GROUP BY t.uid ORDER BY plays DESC, first_id LIMIT ${TOP_LIMIT}) x)`);

/**
 * The most played songs of all time, from the per-song aggregate's (user, plays) index. Taking
 * as many more songs as lost plays to ignores, and every song tied with the last, makes the top
 * exact: songs further down have fewer plays than ten songs that lost none.
 */
const topSongsAllTime = (userId: string) => sql`
  (WITH cuts AS (SELECT uid, sum(plays) AS plays FROM excluded GROUP BY uid),
   ranked AS MATERIALIZED (
     SELECT g.uid, (g.plays - coalesce(c.plays, 0))::int AS plays
     FROM user_song_stats g LEFT JOIN cuts c ON c.uid = g.uid
     WHERE g.user_id = ${userId} AND g.plays > coalesce(c.plays, 0)
       AND g.plays >= coalesce((SELECT plays FROM user_song_stats WHERE user_id = ${userId}
                                ORDER BY plays DESC
                                OFFSET ${TOP_LIMIT - 1} + (SELECT count(*) FROM cuts) LIMIT 1), 0)
   )
   -- Each song's counted versions: shown as its most played one, ties broken by the first id.
   SELECT json_agg(json_build_object('track_id', x.track_id, 'plays', x.plays)
                   ORDER BY x.plays DESC, x.first_id)
   FROM (SELECT r.plays, v.track_id, v.first_id
         FROM ranked r
         CROSS JOIN LATERAL (
           SELECT (array_agg(s.track_id ORDER BY s.plays DESC, s.track_id))[1] AS track_id,
                  min(s.track_id) AS first_id
           FROM tracks t JOIN user_track_stats s ON s.user_id = ${userId} AND s.track_id = t.id
           WHERE t.uid = r.uid AND s.track_id NOT IN (SELECT track_id FROM excluded)
         ) v
         ORDER BY r.plays DESC, v.first_id LIMIT ${TOP_LIMIT}) x)`;

/** Top songs (all time and 30 days), top artists and the weekly chart: friends and owner only. */
const highlightsOf = (userId: string) => sql`
    WITH ${exclusions(userId)},
    recent AS MATERIALIZED (
      SELECT d.track_id, sum(d.plays)::int AS plays
      FROM user_track_days d
      WHERE d.user_id = ${userId} AND d.day > current_date - ${RECENT_DAYS}::int
        AND d.track_id NOT IN (SELECT track_id FROM excluded)
      GROUP BY d.track_id
    )
    SELECT
      ${topSongsAllTime(userId)} AS top_all_time,
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
                  FROM (${countedDays(userId, 7 * CHART_WEEKS)}) d
                  GROUP BY 1) p ON p.week = w.week) AS weekly`;

export async function profileStats(
  db: Db,
  userId: string,
  withHighlights: boolean,
): Promise<ProfileStats> {
  const totalsQuery = sql`
    WITH ${exclusions(userId)}
    SELECT
      ((SELECT coalesce(sum(plays), 0) FROM user_days WHERE user_id = ${userId})
        - (SELECT coalesce(sum(plays), 0) FROM excluded))::int AS total_plays,
      ((SELECT coalesce(sum(ms_played), 0) FROM user_days WHERE user_id = ${userId})
        - (SELECT coalesce(sum(ms_played), 0) FROM excluded))::float8 AS total_ms,
      (SELECT coalesce(sum(ms_played), 0)::float8
       FROM (${countedDays(userId, RECENT_DAYS)}) d) AS recent_ms,
      (SELECT count(*)::int FROM artist_plays) AS artists,
      (SELECT genre FROM artist_plays ap JOIN artists a ON a.id = ap.artist_id,
              unnest(a.genres) AS genre
       GROUP BY genre ORDER BY sum(ap.plays) DESC, genre LIMIT 1) AS genre,
      (SELECT substr(al.release_date, 1, 3) || '0s'
       FROM (SELECT a.album_id, a.plays - coalesce(x.plays, 0) AS plays
             FROM user_album_stats a
             LEFT JOIN (SELECT album_id, sum(plays) AS plays FROM excluded GROUP BY album_id) x
               ON x.album_id = a.album_id
             WHERE a.user_id = ${userId}) c
       JOIN albums al ON al.id = c.album_id
       WHERE c.plays > 0 AND al.release_date ~ '^[0-9]{4}'
       GROUP BY 1 ORDER BY sum(c.plays) DESC, 1 DESC LIMIT 1) AS decade,
      ${countedLikes(userId)} AS likes,
      (SELECT count(*)::int FROM user_playlists WHERE user_id = ${userId}) AS playlists,
      (SELECT least((SELECT min(played_at) FROM plays WHERE user_id = ${userId}),
                    (SELECT tracking_since FROM spotify_accounts WHERE user_id = ${userId})))
        AS tracking_since`;
  const highlightsQuery = highlightsOf(userId);
  const { t, h } = await db.transaction(async (tx) => {
    // These index-driven statements run in milliseconds; their estimated costs can still reach
    // the JIT threshold, and compiling takes longer than running them.
    await tx.execute(sql`SET LOCAL jit = off`);
    const totals = await tx.execute<TotalsRow>(totalsQuery);
    const highlights = withHighlights ? await tx.execute<HighlightsRow>(highlightsQuery) : null;
    return { t: totals.rows[0]!, h: highlights?.rows[0] };
  });
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
  if (!h) return stats;
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
    SELECT artist_id, plays::float8 AS plays FROM user_artist_stats WHERE user_id = ${userId}`;
  const result = await db.execute<{ similarity: number | null }>(sql`
    WITH a AS (${perArtist(a)}), b AS (${perArtist(b)})
    SELECT (SELECT sum(a.plays * b.plays) FROM a JOIN b USING (artist_id))
         / nullif(sqrt((SELECT sum(plays * plays) FROM a)) * sqrt((SELECT sum(plays * plays) FROM b)), 0)
         AS similarity`);
  return Math.round((result.rows[0]?.similarity ?? 0) * 100);
}
