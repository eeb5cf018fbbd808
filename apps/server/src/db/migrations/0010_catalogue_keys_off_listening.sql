ALTER TABLE "plays" DROP CONSTRAINT "plays_track_id_tracks_id_fk";
--> statement-breakpoint
ALTER TABLE "user_album_stats" DROP CONSTRAINT "user_album_stats_album_id_albums_id_fk";
--> statement-breakpoint
ALTER TABLE "user_artist_stats" DROP CONSTRAINT "user_artist_stats_artist_id_artists_id_fk";
--> statement-breakpoint
ALTER TABLE "user_track_days" DROP CONSTRAINT "user_track_days_track_id_tracks_id_fk";
--> statement-breakpoint
ALTER TABLE "user_track_stats" DROP CONSTRAINT "user_track_stats_track_id_tracks_id_fk";
