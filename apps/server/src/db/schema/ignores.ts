import { boolean, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { artists } from './catalog';
import { users } from './users';

/**
 * What a user excludes from their stats and suggestions: songs (by uid) and artists. `reported`
 * asks the admins to make the ignore global.
 */
export const ignoredTracks = pgTable(
  'ignored_tracks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    reported: boolean('reported').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.uid] })],
);

export const ignoredArtists = pgTable(
  'ignored_artists',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    artistId: text('artist_id')
      .notNull()
      .references(() => artists.id),
    reported: boolean('reported').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.artistId] })],
);

/** Ignores an admin made global: excluded for everyone. */
export const globalIgnoredTracks = pgTable('global_ignored_tracks', {
  uid: text('uid').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const globalIgnoredArtists = pgTable('global_ignored_artists', {
  artistId: text('artist_id')
    .primaryKey()
    .references(() => artists.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
