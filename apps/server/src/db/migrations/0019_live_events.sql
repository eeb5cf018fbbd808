CREATE TABLE "live_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "live_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid NOT NULL,
	"track_id" text,
	"happened_at" timestamp with time zone,
	"context_uri" text,
	"other_id" uuid,
	"status" text
);
--> statement-breakpoint
CREATE TABLE "now_playing" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"track_id" text,
	"is_playing" boolean DEFAULT false NOT NULL,
	"progress_ms" integer,
	"observed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "now_playing" ADD CONSTRAINT "now_playing_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_events_at_idx" ON "live_events" USING btree ("at");--> statement-breakpoint
-- Live friend activity (src/services/live.ts): what happens is written to live_events by the
-- triggers below and announced on the channel earshot_live by event id; every API process reads
-- the announced rows once and fans them out to its open streams. A now_playing change is
-- announced as `n:<user id>`.
CREATE FUNCTION announce_live(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) > 0 THEN
    -- At most 200 ids of a few digits: far below the channel's 8000 bytes.
    PERFORM pg_notify('earshot_live', array_to_string(ids, ','));
  END IF;
END
$$;
--> statement-breakpoint
-- Statement-level. A statement writing more than 100 rows is a bulk change (a history import, a
-- first library sync, a deleted account), not something friends watch happen: no live events.
-- Plays and likes older than a day are history arriving late (an import), not news either.
CREATE FUNCTION live_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids bigint[];
  bulk boolean;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) > 100 INTO bulk FROM (SELECT 1 FROM old_rows LIMIT 101) x;
  ELSE
    SELECT count(*) > 100 INTO bulk FROM (SELECT 1 FROM new_rows LIMIT 101) x;
  END IF;
  IF bulk THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'plays' THEN
    WITH added AS (
      INSERT INTO live_events (kind, user_id, track_id, happened_at, context_uri)
      SELECT 'play', user_id, track_id, played_at, context_uri FROM new_rows
      WHERE played_at > now() - interval '1 day' ORDER BY played_at
      RETURNING id)
    SELECT array_agg(id) INTO ids FROM added;
  ELSIF TG_TABLE_NAME = 'saved_tracks' AND TG_OP = 'INSERT' THEN
    WITH added AS (
      INSERT INTO live_events (kind, user_id, track_id, happened_at)
      SELECT 'like', user_id, track_id, added_at FROM new_rows
      WHERE added_at > now() - interval '1 day' ORDER BY added_at
      RETURNING id)
    SELECT array_agg(id) INTO ids FROM added;
  ELSIF TG_TABLE_NAME = 'saved_tracks' THEN
    WITH added AS (
      INSERT INTO live_events (kind, user_id, track_id, happened_at)
      SELECT 'unlike', user_id, track_id, now() FROM old_rows
      RETURNING id)
    SELECT array_agg(id) INTO ids FROM added;
  END IF;
  PERFORM announce_live(ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Friendship changes, told to each of the two people as they now see it (the contract's
-- friendship statuses): a request, its answer, a new friendship, an unfriend.
CREATE FUNCTION live_friendship_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids bigint[];
BEGIN
  IF TG_TABLE_NAME = 'friend_requests' AND TG_OP = 'INSERT' THEN
    WITH added AS (
      INSERT INTO live_events (kind, user_id, other_id, status)
      SELECT 'friendship', requester_id, addressee_id, 'pending_outgoing' FROM new_rows
      UNION ALL
      SELECT 'friendship', addressee_id, requester_id, 'pending_incoming' FROM new_rows
      RETURNING id)
    SELECT array_agg(id) INTO ids FROM added;
  ELSIF TG_TABLE_NAME = 'friend_requests' THEN
    WITH added AS (
      INSERT INTO live_events (kind, user_id, other_id, status)
      SELECT 'friendship', requester_id, addressee_id, 'none' FROM old_rows
      UNION ALL
      SELECT 'friendship', addressee_id, requester_id, 'none' FROM old_rows
      RETURNING id)
    SELECT array_agg(id) INTO ids FROM added;
  ELSIF TG_OP = 'INSERT' THEN
    -- One row per direction: each tells its user_id.
    WITH added AS (
      INSERT INTO live_events (kind, user_id, other_id, status)
      SELECT 'friendship', user_id, friend_id, 'friends' FROM new_rows
      RETURNING id)
    SELECT array_agg(id) INTO ids FROM added;
  ELSE
    WITH added AS (
      INSERT INTO live_events (kind, user_id, other_id, status)
      SELECT 'friendship', user_id, friend_id, 'none' FROM old_rows
      RETURNING id)
    SELECT array_agg(id) INTO ids FROM added;
  END IF;
  PERFORM announce_live(ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER plays_live AFTER INSERT ON plays
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION live_rows();
--> statement-breakpoint
CREATE TRIGGER saved_tracks_live_insert AFTER INSERT ON saved_tracks
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION live_rows();
--> statement-breakpoint
CREATE TRIGGER saved_tracks_live_delete AFTER DELETE ON saved_tracks
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION live_rows();
--> statement-breakpoint
CREATE TRIGGER friend_requests_live_insert AFTER INSERT ON friend_requests
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION live_friendship_rows();
--> statement-breakpoint
CREATE TRIGGER friend_requests_live_delete AFTER DELETE ON friend_requests
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION live_friendship_rows();
--> statement-breakpoint
CREATE TRIGGER friendships_live_insert AFTER INSERT ON friendships
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION live_friendship_rows();
--> statement-breakpoint
CREATE TRIGGER friendships_live_delete AFTER DELETE ON friendships
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION live_friendship_rows();
--> statement-breakpoint
-- The poller writes the state columns only when what a friend sees changed (a new track, a pause,
-- a seek); the lease (checked_at) alone is silent.
CREATE FUNCTION announce_now_playing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('earshot_live', 'n:' || NEW.user_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER now_playing_announce AFTER UPDATE OF track_id, is_playing, progress_ms, observed_at
  ON now_playing FOR EACH ROW EXECUTE FUNCTION announce_now_playing();
