-- The plays trigger in one statement: the inserted rows are joined to their tracks and grouped
-- once (by user, track and day), and each aggregate is upserted from that. Per-track days are
-- kept only for the last 400 days: profiles read them for 30 days and 52 weeks, and for a
-- 10-year import they were most of the trigger's rows. Older ones are neither written nor read.
CREATE OR REPLACE FUNCTION plays_aggregate_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH base AS MATERIALIZED (
    SELECT i.user_id, i.track_id, (i.played_at AT TIME ZONE 'UTC')::date AS day,
           t.album_id, t.uid, count(*)::int AS plays,
           sum(coalesce(i.ms_played, t.duration_ms, 0))::bigint AS ms_played,
           max(i.played_at) AS last_played_at
    FROM inserted i JOIN tracks t ON t.id = i.track_id
    GROUP BY i.user_id, i.track_id, 3, t.album_id, t.uid
  ), by_track AS MATERIALIZED (
    SELECT user_id, track_id, sum(plays)::int AS plays, sum(ms_played)::bigint AS ms_played,
           max(last_played_at) AS last_played_at
    FROM base GROUP BY user_id, track_id
  ), track_stats AS (
    INSERT INTO user_track_stats AS s (user_id, track_id, plays, ms_played, last_played_at)
    SELECT user_id, track_id, plays, ms_played, last_played_at FROM by_track
    ON CONFLICT (user_id, track_id) DO UPDATE SET
      plays = s.plays + excluded.plays,
      ms_played = s.ms_played + excluded.ms_played,
      last_played_at = greatest(s.last_played_at, excluded.last_played_at)
  ), track_days AS (
    INSERT INTO user_track_days AS d (user_id, day, track_id, plays, ms_played)
    SELECT user_id, day, track_id, plays, ms_played FROM base
    WHERE day > (now() AT TIME ZONE 'UTC')::date - 400
    ON CONFLICT (user_id, day, track_id) DO UPDATE SET
      plays = d.plays + excluded.plays,
      ms_played = d.ms_played + excluded.ms_played
  ), days AS (
    INSERT INTO user_days AS d (user_id, day, plays, ms_played)
    SELECT user_id, day, sum(plays), sum(ms_played) FROM base GROUP BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET
      plays = d.plays + excluded.plays,
      ms_played = d.ms_played + excluded.ms_played
  ), artist_stats AS (
    INSERT INTO user_artist_stats AS a (user_id, artist_id, plays, ms_played)
    SELECT b.user_id, ta.artist_id, sum(b.plays), sum(b.ms_played)
    FROM by_track b JOIN track_artists ta ON ta.track_id = b.track_id
    GROUP BY 1, 2
    ON CONFLICT (user_id, artist_id) DO UPDATE SET
      plays = a.plays + excluded.plays,
      ms_played = a.ms_played + excluded.ms_played
  ), album_stats AS (
    INSERT INTO user_album_stats AS a (user_id, album_id, plays, ms_played)
    SELECT user_id, album_id, sum(plays), sum(ms_played) FROM base
    WHERE album_id IS NOT NULL
    GROUP BY 1, 2
    ON CONFLICT (user_id, album_id) DO UPDATE SET
      plays = a.plays + excluded.plays,
      ms_played = a.ms_played + excluded.ms_played
  )
  INSERT INTO user_song_stats AS g (user_id, uid, plays, ms_played)
  SELECT user_id, uid, sum(plays), sum(ms_played) FROM base GROUP BY 1, 2
  ON CONFLICT (user_id, uid) DO UPDATE SET
    plays = g.plays + excluded.plays,
    ms_played = g.ms_played + excluded.ms_played;
  RETURN NULL;
END
$$;
