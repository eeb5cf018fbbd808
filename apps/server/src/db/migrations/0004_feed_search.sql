CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "tracks_search_text_idx" ON "tracks" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "saved_tracks_user_added_idx" ON "saved_tracks" USING btree ("user_id","added_at");--> statement-breakpoint
-- Tracks stored before this column existed: searchable by case-folded names until their next sync.
UPDATE "tracks" t SET "search_text" = lower(concat_ws(' ', t.name,
  (SELECT al.name FROM albums al WHERE al.id = t.album_id),
  (SELECT string_agg(a.name, ' ' ORDER BY ta.position) FROM track_artists ta JOIN artists a ON a.id = ta.artist_id WHERE ta.track_id = t.id)));
