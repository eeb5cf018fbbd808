-- Discover (bench/discover): Like Your On-Repeat sums a window's per-track days by song, and
-- the plays of each shown song's versions to show the most played one. With the plays in both
-- indexes of user_track_days (in the primary key's as an included column, so it still keys the
-- trigger's upsert) both read an index alone instead of a heap page per row: a heavy listener's
-- year of days lies on thousands of pages, shared with everyone else's days.
ALTER TABLE "user_track_days" DROP CONSTRAINT "user_track_days_user_id_day_track_id_pk";--> statement-breakpoint
ALTER TABLE "user_track_days" ADD CONSTRAINT "user_track_days_user_id_day_track_id_pk" PRIMARY KEY ("user_id","day","track_id") INCLUDE ("plays");--> statement-breakpoint
DROP INDEX "user_track_days_user_track_idx";--> statement-breakpoint
CREATE INDEX "user_track_days_user_track_idx" ON "user_track_days" USING btree ("user_id","track_id","day","plays");
