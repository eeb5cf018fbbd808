CREATE TABLE "user_album_stats" (
	"user_id" uuid NOT NULL,
	"album_id" text NOT NULL,
	"plays" integer NOT NULL,
	"ms_played" bigint NOT NULL,
	CONSTRAINT "user_album_stats_user_id_album_id_pk" PRIMARY KEY("user_id","album_id")
);
--> statement-breakpoint
CREATE TABLE "user_artist_stats" (
	"user_id" uuid NOT NULL,
	"artist_id" text NOT NULL,
	"plays" integer NOT NULL,
	"ms_played" bigint NOT NULL,
	CONSTRAINT "user_artist_stats_user_id_artist_id_pk" PRIMARY KEY("user_id","artist_id")
);
--> statement-breakpoint
CREATE TABLE "user_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"plays" integer NOT NULL,
	"ms_played" bigint NOT NULL,
	CONSTRAINT "user_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "user_song_stats" (
	"user_id" uuid NOT NULL,
	"uid" text NOT NULL,
	"plays" integer NOT NULL,
	"ms_played" bigint NOT NULL,
	CONSTRAINT "user_song_stats_user_id_uid_pk" PRIMARY KEY("user_id","uid")
);
--> statement-breakpoint
ALTER TABLE "user_album_stats" ADD CONSTRAINT "user_album_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_album_stats" ADD CONSTRAINT "user_album_stats_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_artist_stats" ADD CONSTRAINT "user_artist_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_artist_stats" ADD CONSTRAINT "user_artist_stats_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_days" ADD CONSTRAINT "user_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_song_stats" ADD CONSTRAINT "user_song_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_song_stats_user_plays_idx" ON "user_song_stats" USING btree ("user_id","plays" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_track_days_user_track_idx" ON "user_track_days" USING btree ("user_id","track_id","day");--> statement-breakpoint
-- The plays trigger now also keeps the coarser aggregates (see listening.ts). Each is one
-- grouped upsert over the statement's inserted rows.
CREATE OR REPLACE FUNCTION plays_aggregate_insert() RETURNS trigger LANGUAGE plpgsql AS $$
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

  INSERT INTO user_days AS d (user_id, day, plays, ms_played)
  SELECT i.user_id, (i.played_at AT TIME ZONE 'UTC')::date, count(*),
         sum(coalesce(i.ms_played, t.duration_ms, 0))
  FROM inserted i JOIN tracks t ON t.id = i.track_id
  GROUP BY 1, 2
  ON CONFLICT (user_id, day) DO UPDATE SET
    plays = d.plays + excluded.plays,
    ms_played = d.ms_played + excluded.ms_played;

  INSERT INTO user_artist_stats AS a (user_id, artist_id, plays, ms_played)
  SELECT i.user_id, ta.artist_id, count(*), sum(coalesce(i.ms_played, t.duration_ms, 0))
  FROM inserted i JOIN tracks t ON t.id = i.track_id JOIN track_artists ta ON ta.track_id = i.track_id
  GROUP BY 1, 2
  ON CONFLICT (user_id, artist_id) DO UPDATE SET
    plays = a.plays + excluded.plays,
    ms_played = a.ms_played + excluded.ms_played;

  INSERT INTO user_album_stats AS a (user_id, album_id, plays, ms_played)
  SELECT i.user_id, t.album_id, count(*), sum(coalesce(i.ms_played, t.duration_ms, 0))
  FROM inserted i JOIN tracks t ON t.id = i.track_id
  WHERE t.album_id IS NOT NULL
  GROUP BY 1, 2
  ON CONFLICT (user_id, album_id) DO UPDATE SET
    plays = a.plays + excluded.plays,
    ms_played = a.ms_played + excluded.ms_played;

  INSERT INTO user_song_stats AS g (user_id, uid, plays, ms_played)
  SELECT i.user_id, t.uid, count(*), sum(coalesce(i.ms_played, t.duration_ms, 0))
  FROM inserted i JOIN tracks t ON t.id = i.track_id
  GROUP BY 1, 2
  ON CONFLICT (user_id, uid) DO UPDATE SET
    plays = g.plays + excluded.plays,
    ms_played = g.ms_played + excluded.ms_played;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- When tracks move to another song (uid), the per-song aggregates of everyone who played them
-- are recounted for the songs involved, from the per-track ones.
CREATE FUNCTION tracks_song_change() RETURNS trigger LANGUAGE plpgsql AS $$
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
  INSERT INTO user_song_stats (user_id, uid, plays, ms_played)
  WITH moved AS (
    SELECT o.id, o.uid AS old_uid, n.uid AS new_uid
    FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.uid <> n.uid
  ),
  scope AS (
    SELECT DISTINCT p.user_id, s.uid
    FROM plays p, (SELECT old_uid AS uid FROM moved UNION SELECT new_uid FROM moved) s
    WHERE p.track_id IN (SELECT id FROM moved)
  )
  SELECT c.user_id, c.uid, sum(s.plays), sum(s.ms_played)
  FROM scope c
  JOIN tracks t ON t.uid = c.uid
  JOIN user_track_stats s ON s.user_id = c.user_id AND s.track_id = t.id
  GROUP BY 1, 2;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracks_song_change AFTER UPDATE ON tracks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tracks_song_change();
--> statement-breakpoint
INSERT INTO user_days (user_id, day, plays, ms_played)
SELECT user_id, day, sum(plays), sum(ms_played) FROM user_track_days GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO user_artist_stats (user_id, artist_id, plays, ms_played)
SELECT s.user_id, ta.artist_id, sum(s.plays), sum(s.ms_played)
FROM user_track_stats s JOIN track_artists ta ON ta.track_id = s.track_id
GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO user_album_stats (user_id, album_id, plays, ms_played)
SELECT s.user_id, t.album_id, sum(s.plays), sum(s.ms_played)
FROM user_track_stats s JOIN tracks t ON t.id = s.track_id
WHERE t.album_id IS NOT NULL
GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO user_song_stats (user_id, uid, plays, ms_played)
SELECT s.user_id, t.uid, sum(s.plays), sum(s.ms_played)
FROM user_track_stats s JOIN tracks t ON t.id = s.track_id
GROUP BY 1, 2;
