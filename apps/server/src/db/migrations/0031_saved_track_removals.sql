-- Likes removed in Earshot, remembered for a day (decision 0044): a library sync that read the
-- user's Spotify library before an unlike reached it stores nothing the user removed since the
-- sync began (services/likes.ts).
CREATE TABLE "saved_track_removals" (
	"user_id" uuid NOT NULL,
	"track_id" text NOT NULL,
	"removed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saved_track_removals_user_id_track_id_pk" PRIMARY KEY("user_id","track_id")
);
--> statement-breakpoint
ALTER TABLE "saved_track_removals" ADD CONSTRAINT "saved_track_removals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
