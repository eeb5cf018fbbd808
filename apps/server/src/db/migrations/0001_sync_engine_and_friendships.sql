CREATE TABLE "album_artists" (
	"album_id" text NOT NULL,
	"position" integer NOT NULL,
	"artist_id" text NOT NULL,
	CONSTRAINT "album_artists_album_id_position_pk" PRIMARY KEY("album_id","position")
);
--> statement-breakpoint
CREATE TABLE "albums" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"album_type" text,
	"release_date" text,
	"release_date_precision" text,
	"total_tracks" integer,
	"picture" text,
	"enriched_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "artists" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"genres" text[],
	"popularity" integer,
	"followers" bigint,
	"picture" text,
	"enriched_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "track_artists" (
	"track_id" text NOT NULL,
	"position" integer NOT NULL,
	"artist_id" text NOT NULL,
	CONSTRAINT "track_artists_track_id_position_pk" PRIMARY KEY("track_id","position")
);
--> statement-breakpoint
CREATE TABLE "tracks" (
	"id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"album_id" text,
	"duration_ms" integer,
	"popularity" integer,
	"explicit" boolean,
	"isrc" text,
	"title_key" text NOT NULL,
	"track_number" integer,
	"disc_number" integer,
	"enriched_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uid_redirects" (
	"from_uid" text PRIMARY KEY NOT NULL,
	"to_uid" text NOT NULL,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "followed_artists" (
	"user_id" uuid NOT NULL,
	"artist_id" text NOT NULL,
	CONSTRAINT "followed_artists_user_id_artist_id_pk" PRIMARY KEY("user_id","artist_id")
);
--> statement-breakpoint
CREATE TABLE "playlists" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"picture" text,
	"owner_spotify_id" text NOT NULL,
	"owner_name" text,
	"is_public" boolean,
	"is_collaborative" boolean NOT NULL,
	"track_count" integer NOT NULL,
	"snapshot_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_tracks" (
	"user_id" uuid NOT NULL,
	"track_id" text NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saved_tracks_user_id_track_id_pk" PRIMARY KEY("user_id","track_id")
);
--> statement-breakpoint
CREATE TABLE "user_playlists" (
	"user_id" uuid NOT NULL,
	"playlist_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "user_playlists_user_id_playlist_id_pk" PRIMARY KEY("user_id","playlist_id")
);
--> statement-breakpoint
CREATE TABLE "plays" (
	"user_id" uuid NOT NULL,
	"played_at" timestamp with time zone NOT NULL,
	"track_id" text NOT NULL,
	"context_uri" text,
	"source" text NOT NULL,
	"ms_played" integer,
	CONSTRAINT "plays_user_id_played_at_pk" PRIMARY KEY("user_id","played_at")
);
--> statement-breakpoint
CREATE TABLE "friend_requests" (
	"requester_id" uuid NOT NULL,
	"addressee_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "friend_requests_requester_id_addressee_id_pk" PRIMARY KEY("requester_id","addressee_id")
);
--> statement-breakpoint
CREATE TABLE "friendships" (
	"user_id" uuid NOT NULL,
	"friend_id" uuid NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "friendships_user_id_friend_id_pk" PRIMARY KEY("user_id","friend_id")
);
--> statement-breakpoint
ALTER TABLE "spotify_accounts" ADD COLUMN "tracking_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "spotify_accounts" ADD COLUMN "recent_cursor_ms" bigint;--> statement-breakpoint
ALTER TABLE "spotify_accounts" ADD COLUMN "recent_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "spotify_accounts" ADD COLUMN "recent_due_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "spotify_accounts" ADD COLUMN "recent_interval_sec" integer;--> statement-breakpoint
ALTER TABLE "spotify_accounts" ADD COLUMN "library_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "spotify_accounts" ADD COLUMN "library_due_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "spotify_accounts" ADD COLUMN "saved_tracks_reconciled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "album_artists" ADD CONSTRAINT "album_artists_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "album_artists" ADD CONSTRAINT "album_artists_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_artists" ADD CONSTRAINT "track_artists_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_artists" ADD CONSTRAINT "track_artists_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followed_artists" ADD CONSTRAINT "followed_artists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "followed_artists" ADD CONSTRAINT "followed_artists_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_tracks" ADD CONSTRAINT "saved_tracks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_tracks" ADD CONSTRAINT "saved_tracks_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_playlists" ADD CONSTRAINT "user_playlists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_playlists" ADD CONSTRAINT "user_playlists_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plays" ADD CONSTRAINT "plays_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plays" ADD CONSTRAINT "plays_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friend_requests" ADD CONSTRAINT "friend_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friend_requests" ADD CONSTRAINT "friend_requests_addressee_id_users_id_fk" FOREIGN KEY ("addressee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_friend_id_users_id_fk" FOREIGN KEY ("friend_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "album_artists_artist_idx" ON "album_artists" USING btree ("artist_id");--> statement-breakpoint
CREATE INDEX "track_artists_artist_idx" ON "track_artists" USING btree ("artist_id");--> statement-breakpoint
CREATE INDEX "tracks_uid_idx" ON "tracks" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "tracks_isrc_idx" ON "tracks" USING btree ("isrc");--> statement-breakpoint
CREATE INDEX "tracks_title_key_idx" ON "tracks" USING btree ("title_key");--> statement-breakpoint
CREATE INDEX "tracks_album_idx" ON "tracks" USING btree ("album_id");--> statement-breakpoint
CREATE INDEX "plays_track_idx" ON "plays" USING btree ("track_id");--> statement-breakpoint
CREATE INDEX "friend_requests_addressee_idx" ON "friend_requests" USING btree ("addressee_id");--> statement-breakpoint
CREATE INDEX "spotify_accounts_recent_due_idx" ON "spotify_accounts" USING btree ("recent_due_at");--> statement-breakpoint
CREATE INDEX "spotify_accounts_library_due_idx" ON "spotify_accounts" USING btree ("library_due_at");