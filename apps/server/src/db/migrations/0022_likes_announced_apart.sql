-- A like changes the liker's own pages and their friends' Likes pages, but not their friends'
-- Recent pages, which show only the viewer's own likes. Announced as `u:`, each like dropped the
-- Recent pages of ~150 friends from the caches; likes are now announced apart, as
-- `l:<user ids>` (src/db/changes.ts, decision 0021).
CREATE FUNCTION announce_likes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT user_id::text) INTO ids FROM old_rows;
  ELSE
    SELECT array_agg(DISTINCT user_id::text) INTO ids FROM new_rows;
  END IF;
  IF coalesce(cardinality(ids), 0) = 0 THEN
    RETURN NULL;
  END IF;
  -- A payload stays far below the channel's 8000 bytes.
  IF cardinality(ids) > 100 THEN
    PERFORM announce('*');
  ELSE
    PERFORM announce('l:' || array_to_string(ids, ','));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER saved_tracks_announce_insert ON saved_tracks;
--> statement-breakpoint
DROP TRIGGER saved_tracks_announce_update ON saved_tracks;
--> statement-breakpoint
DROP TRIGGER saved_tracks_announce_delete ON saved_tracks;
--> statement-breakpoint
CREATE TRIGGER saved_tracks_announce_insert AFTER INSERT ON saved_tracks
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_likes();
--> statement-breakpoint
CREATE TRIGGER saved_tracks_announce_update AFTER UPDATE ON saved_tracks
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_likes();
--> statement-breakpoint
CREATE TRIGGER saved_tracks_announce_delete AFTER DELETE ON saved_tracks
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_likes();
