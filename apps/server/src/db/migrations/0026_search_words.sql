-- Search's word index (decision 0025, search-perf): each searched name cut into its words, one
-- row per (word, item), in C order, so "the items with a word starting 'lo'" is a B-tree range
-- read only as far as the answer needs. Trigram bitmaps had to collect every match of a common
-- word first. Kept exact by the triggers below; nothing else writes these tables.
--
-- The words of a folded text: split at spaces, as `LIKE 'w%' OR LIKE '% w%'` reads them. Cut to
-- 200 characters (a query is at most 200, so no match is lost): a B-tree entry has a size limit.
CREATE FUNCTION earshot_words(text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN ARRAY(SELECT DISTINCT left(w, 200) FROM unnest(string_to_array($1, ' ')) AS w WHERE w <> '');--> statement-breakpoint
CREATE TABLE "track_words" (
	"word" text COLLATE "C" NOT NULL,
	"track_id" text NOT NULL,
	CONSTRAINT "track_words_word_track_id_pk" PRIMARY KEY("word","track_id")
);--> statement-breakpoint
CREATE TABLE "album_words" (
	"word" text COLLATE "C" NOT NULL,
	"album_id" text NOT NULL,
	CONSTRAINT "album_words_word_album_id_pk" PRIMARY KEY("word","album_id")
);--> statement-breakpoint
CREATE TABLE "artist_words" (
	"word" text COLLATE "C" NOT NULL,
	"artist_id" text NOT NULL,
	CONSTRAINT "artist_words_word_artist_id_pk" PRIMARY KEY("word","artist_id")
);--> statement-breakpoint
ALTER TABLE "track_words" ADD CONSTRAINT "track_words_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "album_words" ADD CONSTRAINT "album_words_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artist_words" ADD CONSTRAINT "artist_words_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- An item's other words, for queries of several words: does this candidate also have one?
CREATE INDEX "track_words_track_idx" ON "track_words" USING btree ("track_id","word");--> statement-breakpoint
CREATE INDEX "album_words_album_idx" ON "album_words" USING btree ("album_id","word");--> statement-breakpoint
CREATE INDEX "artist_words_artist_idx" ON "artist_words" USING btree ("artist_id","word");--> statement-breakpoint
-- Tracks are searched by their `search_text` (title, album, artists), albums and artists by
-- their folded name, as before. Inserted rows get their words; updated rows whose searched text
-- changed get theirs replaced. Deleted items take their words along (the foreign keys).
CREATE FUNCTION track_words_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM track_words w USING old_rows o JOIN new_rows n ON n.id = o.id
      WHERE w.track_id = n.id AND o.search_text IS DISTINCT FROM n.search_text;
    INSERT INTO track_words (word, track_id)
      SELECT unnest(earshot_words(n.search_text)), n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE o.search_text IS DISTINCT FROM n.search_text;
  ELSE
    INSERT INTO track_words (word, track_id) SELECT unnest(earshot_words(search_text)), id FROM new_rows;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Albums and artists alike: TG_ARGV names the words table and its item column.
CREATE FUNCTION name_words_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    EXECUTE format('DELETE FROM %I w USING old_rows o JOIN new_rows n ON n.id = o.id
                    WHERE w.%I = n.id AND o.name IS DISTINCT FROM n.name', TG_ARGV[0], TG_ARGV[1]);
    EXECUTE format('INSERT INTO %I (word, %I)
                    SELECT unnest(earshot_words(earshot_fold(n.name))), n.id
                    FROM old_rows o JOIN new_rows n ON n.id = o.id
                    WHERE o.name IS DISTINCT FROM n.name', TG_ARGV[0], TG_ARGV[1]);
  ELSE
    EXECUTE format('INSERT INTO %I (word, %I)
                    SELECT unnest(earshot_words(earshot_fold(name))), id FROM new_rows',
                   TG_ARGV[0], TG_ARGV[1]);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER track_words_inserted AFTER INSERT ON tracks
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_words_refresh();--> statement-breakpoint
CREATE TRIGGER track_words_updated AFTER UPDATE ON tracks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION track_words_refresh();--> statement-breakpoint
CREATE TRIGGER album_words_inserted AFTER INSERT ON albums
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_refresh('album_words', 'album_id');--> statement-breakpoint
CREATE TRIGGER album_words_updated AFTER UPDATE ON albums
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_refresh('album_words', 'album_id');--> statement-breakpoint
CREATE TRIGGER artist_words_inserted AFTER INSERT ON artists
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_refresh('artist_words', 'artist_id');--> statement-breakpoint
CREATE TRIGGER artist_words_updated AFTER UPDATE ON artists
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_refresh('artist_words', 'artist_id');--> statement-breakpoint
-- Search read these for words anywhere in a name; nothing else does.
DROP INDEX "albums_name_fold_trgm_idx";--> statement-breakpoint
DROP INDEX "artists_name_fold_trgm_idx";--> statement-breakpoint
-- The catalogue stored so far (the benchmark's generator, which loads with triggers off, calls
-- this too).
CREATE FUNCTION search_words_backfill() RETURNS void LANGUAGE sql AS $$
  INSERT INTO track_words (word, track_id) SELECT unnest(earshot_words(search_text)), id FROM tracks
    ON CONFLICT DO NOTHING;
  INSERT INTO album_words (word, album_id) SELECT unnest(earshot_words(earshot_fold(name))), id FROM albums
    ON CONFLICT DO NOTHING;
  INSERT INTO artist_words (word, artist_id) SELECT unnest(earshot_words(earshot_fold(name))), id FROM artists
    ON CONFLICT DO NOTHING;
$$;--> statement-breakpoint
SELECT search_words_backfill();
