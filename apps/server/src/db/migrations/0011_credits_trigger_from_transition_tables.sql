-- The credits trigger read the changed credits from a temporary table, which never has
-- statistics: the planner guessed hundreds of rows and scanned user_track_stats and
-- user_artist_stats whole for every page of tracks a sync stored (~50 ms each). It now reads the
-- statement's transition table, whose row count the planner knows, and no longer creates a
-- table per transaction.
CREATE OR REPLACE FUNCTION track_credits_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := format(
    'SELECT DISTINCT s.user_id, c.artist_id FROM %I c JOIN user_track_stats s ON s.track_id = c.track_id',
    CASE TG_OP WHEN 'INSERT' THEN 'new_rows' ELSE 'old_rows' END);
BEGIN
  EXECUTE format(
    'DELETE FROM user_artist_stats a USING (%s) x WHERE a.user_id = x.user_id AND a.artist_id = x.artist_id',
    changed);
  EXECUTE format(
    'INSERT INTO user_artist_stats (user_id, artist_id, plays, ms_played)
     SELECT x.user_id, x.artist_id, sum(s.plays), sum(s.ms_played)
     FROM (%s) x
     JOIN track_artists ta ON ta.artist_id = x.artist_id
     JOIN user_track_stats s ON s.user_id = x.user_id AND s.track_id = ta.track_id
     GROUP BY 1, 2',
    changed);
  RETURN NULL;
END
$$;
