CREATE TABLE "playlist_items" (
	"playlist_id" text NOT NULL,
	"position" integer NOT NULL,
	"track_id" text NOT NULL,
	"added_at" timestamp with time zone,
	CONSTRAINT "playlist_items_playlist_id_position_pk" PRIMARY KEY("playlist_id","position")
);
--> statement-breakpoint
DROP INDEX "plays_track_idx";--> statement-breakpoint
ALTER TABLE "albums" ADD COLUMN "tracks_fetched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "albums_fetched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "items_snapshot_id" text;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "items_fetched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "playlist_items" ADD CONSTRAINT "playlist_items_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_items" ADD CONSTRAINT "playlist_items_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plays_track_played_idx" ON "plays" USING btree ("track_id","played_at","user_id");