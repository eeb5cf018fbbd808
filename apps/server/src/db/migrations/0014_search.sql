-- Search ignores case and accents on both sides: "bjork" finds "Björk". unaccent's own function
-- is only STABLE (its dictionary could change); fixing the dictionary makes it safe to index.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- A standard SQL body is parsed once, here, not in every statement that calls it.
CREATE OR REPLACE FUNCTION earshot_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN lower(public.unaccent('public.unaccent'::regdictionary, $1));--> statement-breakpoint
CREATE INDEX "albums_name_fold_trgm_idx" ON "albums" USING gin (earshot_fold("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "albums_name_fold_prefix_idx" ON "albums" USING btree ((earshot_fold("name") COLLATE "C"));--> statement-breakpoint
CREATE INDEX "artists_name_fold_trgm_idx" ON "artists" USING gin (earshot_fold("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "artists_name_fold_prefix_idx" ON "artists" USING btree ((earshot_fold("name") COLLATE "C"));--> statement-breakpoint
CREATE INDEX "tracks_name_fold_prefix_idx" ON "tracks" USING btree ((earshot_fold("name") COLLATE "C"));--> statement-breakpoint
CREATE INDEX "user_album_stats_album_idx" ON "user_album_stats" USING btree ("album_id");--> statement-breakpoint
CREATE INDEX "user_artist_stats_artist_idx" ON "user_artist_stats" USING btree ("artist_id");--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (earshot_fold("name" || ' ' || "username") gin_trgm_ops);