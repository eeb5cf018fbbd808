-- What a public profile shows that 0012 did not announce: the playlists a user keeps, the
-- artists they ignore and those ignored for everyone. Without these a cached profile (and a
-- feed page that hides an ignored artist) would stay as it was after such a write.
CREATE TRIGGER user_playlists_announce_insert AFTER INSERT ON user_playlists
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER user_playlists_announce_delete AFTER DELETE ON user_playlists
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER ignored_artists_announce_insert AFTER INSERT ON ignored_artists
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER ignored_artists_announce_update AFTER UPDATE ON ignored_artists
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER ignored_artists_announce_delete AFTER DELETE ON ignored_artists
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION announce_user_rows('user_id');
--> statement-breakpoint
CREATE TRIGGER global_ignored_artists_announce AFTER INSERT OR DELETE ON global_ignored_artists
  FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue();
