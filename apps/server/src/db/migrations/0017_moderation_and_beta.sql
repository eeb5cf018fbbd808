CREATE TABLE "beta_requests" (
	"email" text PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid
);
--> statement-breakpoint
CREATE TABLE "moderation_decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"admin_id" uuid,
	"action" text NOT NULL,
	"target_kind" text NOT NULL,
	"target_key" text NOT NULL,
	"target_label" text NOT NULL,
	"report_count" integer DEFAULT 0 NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ignored_artists" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ignored_tracks" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "beta_requests" ADD CONSTRAINT "beta_requests_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_decisions_decided_idx" ON "moderation_decisions" USING btree ("decided_at");--> statement-breakpoint
CREATE INDEX "ignored_artists_pending_report_idx" ON "ignored_artists" USING btree ("artist_id") WHERE "ignored_artists"."reported" AND "ignored_artists"."reviewed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "ignored_tracks_pending_report_idx" ON "ignored_tracks" USING btree ("uid") WHERE "ignored_tracks"."reported" AND "ignored_tracks"."reviewed_at" IS NULL;