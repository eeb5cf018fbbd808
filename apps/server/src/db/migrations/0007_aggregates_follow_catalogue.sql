-- Per-artist and per-album aggregates are counted by the credits and album a track has when it is
-- played. When those change later (enrichment gives an imported track its real artists and its
-- album), the aggregates of everyone who played the track are recounted for the artists and
-- albums involved, from the per-track ones.
CREATE FUNCTION track_credits_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS changed_credits (track_id text, artist_id text) ON COMMIT DROP;
  DELETE FROM changed_credits;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO changed_credits SELECT track_id, artist_id FROM new_rows;
  ELSE
    INSERT INTO changed_credits SELECT track_id, artist_id FROM old_rows;
  END IF;
  DELETE FROM user_artist_stats a USING (
    SELECT DISTINCT s.user_id, c.artist_id
    FROM changed_credits c JOIN user_track_stats s ON s.track_id = c.track_id
  ) x
  WHERE a.user_id = x.user_id AND a.artist_id = x.artist_id;
  INSERT INTO user_artist_stats (user_id, artist_id, plays, ms_played)
  SELECT x.user_id, x.artist_id, sum(s.plays), sum(s.ms_played)
  FROM (SELECT DISTINCT s.user_id, c.artist_id
        FROM changed_credits c JOIN user_track_stats s ON s.track_id = c.track_id) x
  JOIN track_artists ta ON ta.artist_id = x.artist_id
  JOIN user_track_stats s ON s.user_id = x.user_id AND s.track_id = ta.track_id
  GROUP BY 1, 2;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER track_credits_added AFTER INSERT ON track_artists
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_credits_change();
--> statement-breakpoint
CREATE TRIGGER track_credits_removed AFTER DELETE ON track_artists
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_credits_change();
--> statement-breakpoint
CREATE FUNCTION tracks_album_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
                 WHERE o.album_id IS DISTINCT FROM n.album_id) THEN
    RETURN NULL;
  END IF;
  DELETE FROM user_album_stats a USING (
    WITH moved AS (
      SELECT o.id, o.album_id AS old_album, n.album_id AS new_album
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE o.album_id IS DISTINCT FROM n.album_id
    )
    SELECT DISTINCT s.user_id, m.album
    FROM (SELECT id, old_album AS album FROM moved UNION SELECT id, new_album FROM moved) m
    JOIN user_track_stats s ON s.track_id = m.id
    WHERE m.album IS NOT NULL
  ) x
  WHERE a.user_id = x.user_id AND a.album_id = x.album;
  INSERT INTO user_album_stats (user_id, album_id, plays, ms_played)
  WITH moved AS (
    SELECT o.id, o.album_id AS old_album, n.album_id AS new_album
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.album_id IS DISTINCT FROM n.album_id
  ),
  scope AS (
    SELECT DISTINCT s.user_id, m.album
    FROM (SELECT id, old_album AS album FROM moved UNION SELECT id, new_album FROM moved) m
    JOIN user_track_stats s ON s.track_id = m.id
    WHERE m.album IS NOT NULL
  )
  SELECT c.user_id, c.album, sum(s.plays), sum(s.ms_played)
  FROM scope c
  JOIN tracks t ON t.album_id = c.album
  JOIN user_track_stats s ON s.user_id = c.user_id AND s.track_id = t.id
  GROUP BY 1, 2;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracks_album_change AFTER UPDATE ON tracks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tracks_album_change();
