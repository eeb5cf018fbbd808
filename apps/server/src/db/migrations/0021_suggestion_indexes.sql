-- Discover (bench/discover): a track's song read from a small index of the tracks that are not
-- their song's first version (uid <> id) instead of from every track; the songs a user played
-- most, in the order Like Your On-Repeat shows them (plays, then uid), read from the index alone.
CREATE INDEX "tracks_version_uid_idx" ON "tracks" USING btree ("id","uid") WHERE "tracks"."uid" <> "tracks"."id";--> statement-breakpoint
DROP INDEX "user_song_stats_user_plays_idx";--> statement-breakpoint
CREATE INDEX "user_song_stats_user_plays_idx" ON "user_song_stats" USING btree ("user_id","plays" DESC NULLS LAST,"uid");
