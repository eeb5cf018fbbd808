-- Discover (bench/discover, decision 0036): each user's last play of each song, kept beside its
-- plays. Rediscover Likes filters the viewer's liked songs by it instead of looking up the last
-- play of every version of each candidate, and Popular with Friends reads the friends' songs
-- last played in its window from the (user, last play) index instead of grouping every
-- friend's per-track days.
ALTER TABLE "user_song_stats" ADD COLUMN "last_played_at" timestamp with time zone;--> statement-breakpoint
-- Recounted from the per-track aggregates, as migration 0006 first filled it (a full rewrite of
-- the table either way; the benchmark's generator runs this last backfill of the table).
DELETE FROM user_song_stats;--> statement-breakpoint
INSERT INTO user_song_stats (user_id, uid, plays, ms_played, last_played_at)
SELECT s.user_id, t.uid, sum(s.plays), sum(s.ms_played), max(s.last_played_at)
FROM user_track_stats s JOIN tracks t ON t.id = s.track_id
GROUP BY 1, 2;--> statement-breakpoint
ALTER TABLE "user_song_stats" ALTER COLUMN "last_played_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "user_song_stats_user_last_played_idx" ON "user_song_stats" USING btree ("user_id","last_played_at","uid");--> statement-breakpoint
-- The plays trigger of migration 0009, the song's last play kept with `greatest` (imports
-- insert plays in any order).
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
  INSERT INTO user_song_stats AS g (user_id, uid, plays, ms_played, last_played_at)
  SELECT user_id, uid, sum(plays), sum(ms_played), max(last_played_at) FROM base GROUP BY 1, 2
  ON CONFLICT (user_id, uid) DO UPDATE SET
    plays = g.plays + excluded.plays,
    ms_played = g.ms_played + excluded.ms_played,
    last_played_at = greatest(g.last_played_at, excluded.last_played_at);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The song-move recount of migration 0006, with the last play: the latest of the song's
-- versions' last plays.
CREATE OR REPLACE FUNCTION tracks_song_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.uid <> n.uid) THEN
    RETURN NULL;
  END IF;
  DELETE FROM user_song_stats g USING (
    WITH moved AS (
      SELECT o.id, o.uid AS old_uid, n.uid AS new_uid
      FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.uid <> n.uid
    )
    SELECT DISTINCT p.user_id, s.uid
    FROM plays p, (SELECT old_uid AS uid FROM moved UNION SELECT new_uid FROM moved) s
    WHERE p.track_id IN (SELECT id FROM moved)
  ) c
  WHERE g.user_id = c.user_id AND g.uid = c.uid;
  INSERT INTO user_song_stats (user_id, uid, plays, ms_played, last_played_at)
  WITH moved AS (
    SELECT o.id, o.uid AS old_uid, n.uid AS new_uid
    FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.uid <> n.uid
  ),
  scope AS (
    SELECT DISTINCT p.user_id, s.uid
    FROM plays p, (SELECT old_uid AS uid FROM moved UNION SELECT new_uid FROM moved) s
    WHERE p.track_id IN (SELECT id FROM moved)
  )
  SELECT c.user_id, c.uid, sum(s.plays), sum(s.ms_played), max(s.last_played_at)
  FROM scope c
  JOIN tracks t ON t.uid = c.uid
  JOIN user_track_stats s ON s.user_id = c.user_id AND s.track_id = t.id
  GROUP BY 1, 2;
  RETURN NULL;
END
$$;
