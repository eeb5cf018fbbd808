-- Keeps user_track_stats and user_track_days in step with plays. Statement-level, over the
-- inserted rows only (ON CONFLICT DO NOTHING skips are not in the transition table), so a bulk
-- import pays one grouped upsert per statement. Plays are never deleted on their own (a user's
-- are deleted with the user, and the aggregates with them).
CREATE FUNCTION plays_aggregate_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_track_stats AS s (user_id, track_id, plays, ms_played, last_played_at)
  SELECT i.user_id, i.track_id, count(*), sum(coalesce(i.ms_played, t.duration_ms, 0)), max(i.played_at)
  FROM inserted i JOIN tracks t ON t.id = i.track_id
  GROUP BY i.user_id, i.track_id
  ON CONFLICT (user_id, track_id) DO UPDATE SET
    plays = s.plays + excluded.plays,
    ms_played = s.ms_played + excluded.ms_played,
    last_played_at = greatest(s.last_played_at, excluded.last_played_at);

  INSERT INTO user_track_days AS d (user_id, day, track_id, plays, ms_played)
  SELECT i.user_id, (i.played_at AT TIME ZONE 'UTC')::date, i.track_id, count(*),
         sum(coalesce(i.ms_played, t.duration_ms, 0))
  FROM inserted i JOIN tracks t ON t.id = i.track_id
  GROUP BY 1, 2, 3
  ON CONFLICT (user_id, day, track_id) DO UPDATE SET
    plays = d.plays + excluded.plays,
    ms_played = d.ms_played + excluded.ms_played;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO user_track_stats (user_id, track_id, plays, ms_played, last_played_at)
SELECT p.user_id, p.track_id, count(*), sum(coalesce(p.ms_played, t.duration_ms, 0)), max(p.played_at)
FROM plays p JOIN tracks t ON t.id = p.track_id
GROUP BY p.user_id, p.track_id;
--> statement-breakpoint
INSERT INTO user_track_days (user_id, day, track_id, plays, ms_played)
SELECT p.user_id, (p.played_at AT TIME ZONE 'UTC')::date, p.track_id, count(*),
       sum(coalesce(p.ms_played, t.duration_ms, 0))
FROM plays p JOIN tracks t ON t.id = p.track_id
GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER plays_aggregate_insert AFTER INSERT ON plays
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION plays_aggregate_insert();
