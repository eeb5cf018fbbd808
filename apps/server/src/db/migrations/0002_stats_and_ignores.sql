CREATE TABLE "global_ignored_artists" (
	"artist_id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "global_ignored_tracks" (
	"uid" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ignored_artists" (
	"user_id" uuid NOT NULL,
	"artist_id" text NOT NULL,
	"reported" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ignored_artists_user_id_artist_id_pk" PRIMARY KEY("user_id","artist_id")
);
--> statement-breakpoint
CREATE TABLE "ignored_tracks" (
	"user_id" uuid NOT NULL,
	"uid" text NOT NULL,
	"reported" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ignored_tracks_user_id_uid_pk" PRIMARY KEY("user_id","uid")
);
--> statement-breakpoint
CREATE TABLE "user_track_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"track_id" text NOT NULL,
	"plays" integer NOT NULL,
	"ms_played" bigint NOT NULL,
	CONSTRAINT "user_track_days_user_id_day_track_id_pk" PRIMARY KEY("user_id","day","track_id")
);
--> statement-breakpoint
CREATE TABLE "user_track_stats" (
	"user_id" uuid NOT NULL,
	"track_id" text NOT NULL,
	"plays" integer NOT NULL,
	"ms_played" bigint NOT NULL,
	"last_played_at" timestamp with time zone NOT NULL,
	CONSTRAINT "user_track_stats_user_id_track_id_pk" PRIMARY KEY("user_id","track_id")
);
--> statement-breakpoint
ALTER TABLE "global_ignored_artists" ADD CONSTRAINT "global_ignored_artists_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ignored_artists" ADD CONSTRAINT "ignored_artists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ignored_artists" ADD CONSTRAINT "ignored_artists_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ignored_tracks" ADD CONSTRAINT "ignored_tracks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_track_days" ADD CONSTRAINT "user_track_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_track_days" ADD CONSTRAINT "user_track_days_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_track_stats" ADD CONSTRAINT "user_track_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_track_stats" ADD CONSTRAINT "user_track_stats_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE no action ON UPDATE no action;