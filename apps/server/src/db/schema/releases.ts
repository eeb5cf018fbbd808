import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { artists } from './catalog';

/**
 * When each followed artist's releases were last read from Spotify: the release mirror reads
 * an artist at most once a day, whoever follows it, so the Spotify calls grow with the artists
 * followed, not with their followers.
 */
export const artistReleaseChecks = pgTable('artist_release_checks', {
  artistId: text('artist_id')
    .primaryKey()
    .references(() => artists.id),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});
