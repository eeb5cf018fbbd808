CREATE TABLE "played_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"track_id" text NOT NULL,
	"source" text NOT NULL,
	"context_user_id" uuid,
	"context_uri" text,
	"next_track_id" text,
	"played_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "played_events" ADD CONSTRAINT "played_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "played_events" ADD CONSTRAINT "played_events_context_user_id_users_id_fk" FOREIGN KEY ("context_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "played_events_user_played_at_idx" ON "played_events" USING btree ("user_id","played_at");