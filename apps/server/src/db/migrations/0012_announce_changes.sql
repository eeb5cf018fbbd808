-- Committed writes are announced on the channel earshot_changes (see src/db/changes.ts), so that
-- every server process keeps its caches exact: `u:<ids>` names the users whose view changed,
-- `c` the catalogue's shown fields, `*` everything, each after `<transaction id>|` (a process
-- hears one announcement on each of its listening connections and counts it once). A
-- notification is sent at commit and is deduplicated within a transaction; a sync or an import
-- file costs one.
CREATE FUNCTION announce(what text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('earshot_changes', txid_current() || '|' || what)
$$;
--> statement-breakpoint
CREATE FUNCTION announce_users(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN;
  END IF;
  -- A payload stays far below the channel's 8000 bytes.
  IF cardinality(ids) > 100 THEN
    PERFORM announce('*');
  ELSE
    PERFORM announce('u:' || array_to_string(ids, ','));
  END IF;
END
$$;
--> statement-breakpoint
-- Statement-level, over the transition table named new_rows or old_rows: the users in the
-- columns given as arguments.
CREATE FUNCTION announce_user_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rows_name text := CASE TG_OP WHEN 'DELETE' THEN 'old_rows' ELSE 'new_rows' END;
  ids text[];
BEGIN
  EXECUTE format('SELECT array_agg(DISTINCT id) FROM (%s) x',
                 (SELECT string_agg(format('SELECT %I::text AS id FROM %I', c, rows_name), ' UNION ALL ')
                  FROM unnest(TG_ARGV) AS c))
    INTO ids;
  PERFORM announce_users(ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION announce_catalogue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM announce('c');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER plays_announce AFTER INSERT ON plays
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER saved_tracks_announce_insert AFTER INSERT ON saved_tracks
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER saved_tracks_announce_update AFTER UPDATE ON saved_tracks
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER saved_tracks_announce_delete AFTER DELETE ON saved_tracks
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER friendships_announce_insert AFTER INSERT ON friendships
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id', 'friend_id');
--> statement-breakpoint
CREATE TRIGGER friendships_announce_delete AFTER DELETE ON friendships
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id', 'friend_id');
--> statement-breakpoint
CREATE TRIGGER ignored_tracks_announce_insert AFTER INSERT ON ignored_tracks
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER ignored_tracks_announce_update AFTER UPDATE ON ignored_tracks
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER ignored_tracks_announce_delete AFTER DELETE ON ignored_tracks
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER users_announce_update AFTER UPDATE ON users
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('id');
--> statement-breakpoint
CREATE TRIGGER users_announce_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('id');
--> statement-breakpoint
CREATE TRIGGER sessions_announce_delete AFTER DELETE ON sessions
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
-- A renewal (once a day per session) or a shortened expiry: cached sessions are read again.
CREATE TRIGGER sessions_announce_update AFTER UPDATE ON sessions
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER global_ignored_tracks_announce AFTER INSERT OR DELETE ON global_ignored_tracks
  FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue();
--> statement-breakpoint
CREATE TRIGGER track_credits_announce AFTER DELETE ON track_artists
  FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue();
--> statement-breakpoint
-- Updates rewrite rows that often stay the same (each sync stores the tracks it saw): only a
-- change of what the feed shows or searches counts. Not popularity: Spotify's drifts all the
-- time, and a page may show yesterday's figure rather than be dropped everywhere on each sync.
CREATE FUNCTION announce_catalogue_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed boolean;
BEGIN
  IF TG_TABLE_NAME = 'tracks' THEN
    SELECT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n USING (id)
                   WHERE (o.uid, o.name, o.duration_ms, o.album_id, o.search_text)
                         IS DISTINCT FROM (n.uid, n.name, n.duration_ms, n.album_id, n.search_text))
      INTO changed;
  ELSIF TG_TABLE_NAME = 'albums' THEN
    SELECT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n USING (id)
                   WHERE (o.name, o.picture, o.release_date)
                         IS DISTINCT FROM (n.name, n.picture, n.release_date))
      INTO changed;
  ELSE
    SELECT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n USING (id) WHERE o.name IS DISTINCT FROM n.name)
      INTO changed;
  END IF;
  IF changed THEN
    PERFORM announce('c');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracks_announce_update AFTER UPDATE ON tracks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_update();
--> statement-breakpoint
CREATE TRIGGER albums_announce_update AFTER UPDATE ON albums
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_update();
--> statement-breakpoint
CREATE TRIGGER artists_announce_update AFTER UPDATE ON artists
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_update();
