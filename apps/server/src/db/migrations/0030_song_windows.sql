-- Like Your On-Repeat over its long windows (decision 0039): each user's plays of each song in
-- the last N days, kept by the plays trigger and rolled forward by the reader when the day
-- changes (services/song-windows.ts). A user's window exists once they first read it; the floor
-- is the day after which plays count.
CREATE TABLE "user_song_window_floors" (
	"user_id" uuid NOT NULL,
	"days" smallint NOT NULL,
	"floor" date NOT NULL,
	CONSTRAINT "user_song_window_floors_user_id_days_pk" PRIMARY KEY("user_id","days")
);
--> statement-breakpoint
CREATE TABLE "user_song_windows" (
	"user_id" uuid NOT NULL,
	"days" smallint NOT NULL,
	"uid" text NOT NULL,
	"plays" integer NOT NULL,
	CONSTRAINT "user_song_windows_user_id_days_uid_pk" PRIMARY KEY("user_id","days","uid")
);
--> statement-breakpoint
ALTER TABLE "user_song_window_floors" ADD CONSTRAINT "user_song_window_floors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_song_windows" ADD CONSTRAINT "user_song_windows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_song_windows_user_plays_idx" ON "user_song_windows" USING btree ("user_id","days","plays" DESC NULLS LAST,"uid");--> statement-breakpoint
-- New plays of a user with windows, counted in each window whose floor is before their day.
-- A roll forward holds the user's row FOR UPDATE; this insert's foreign-key check on plays took
-- KEY SHARE on it, so the two never interleave and each play is counted exactly once.
CREATE FUNCTION plays_song_windows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_song_windows AS w (user_id, days, uid, plays)
  SELECT f.user_id, f.days, t.uid, count(*)::int
  FROM inserted i
  JOIN user_song_window_floors f
    ON f.user_id = i.user_id AND (i.played_at AT TIME ZONE 'UTC')::date > f.floor
  JOIN tracks t ON t.id = i.track_id
  GROUP BY 1, 2, 3
  ON CONFLICT (user_id, days, uid) DO UPDATE SET plays = w.plays + excluded.plays;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER plays_song_windows AFTER INSERT ON plays
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION plays_song_windows();
--> statement-breakpoint
-- Tracks moved to another song: the windows of both songs are recounted from the per-track days
-- for the users who played a moved track, as user_song_stats is (migration 0029).
CREATE FUNCTION tracks_song_windows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.uid <> n.uid) THEN
    RETURN NULL;
  END IF;
  -- Every player of a moved track first, before reading whose windows exist: a first read of
  -- a window, creating it, holds its user's row until its count is committed.
  PERFORM 1 FROM users u
  WHERE u.id IN (SELECT p.user_id FROM plays p WHERE p.track_id IN (
    SELECT o.id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.uid <> n.uid))
  ORDER BY u.id FOR KEY SHARE;
  CREATE TEMP TABLE song_window_scope ON COMMIT DROP AS
  WITH moved AS (
    SELECT o.id, o.uid AS old_uid, n.uid AS new_uid
    FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.uid <> n.uid
  )
  SELECT DISTINCT p.user_id, s.uid
  FROM plays p, (SELECT old_uid AS uid FROM moved UNION SELECT new_uid FROM moved) s
  WHERE p.track_id IN (SELECT id FROM moved)
    AND p.user_id IN (SELECT user_id FROM user_song_window_floors);
  DELETE FROM user_song_windows w USING song_window_scope c
  WHERE w.user_id = c.user_id AND w.uid = c.uid;
  INSERT INTO user_song_windows (user_id, days, uid, plays)
  SELECT f.user_id, f.days, c.uid, sum(d.plays)::int
  FROM song_window_scope c
  JOIN user_song_window_floors f ON f.user_id = c.user_id
  JOIN tracks t ON t.uid = c.uid
  JOIN user_track_days d ON d.user_id = c.user_id AND d.track_id = t.id AND d.day > f.floor
  GROUP BY 1, 2, 3;
  DROP TABLE song_window_scope;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracks_song_windows AFTER UPDATE ON tracks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tracks_song_windows();
