import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { artists, tracks } from './catalog';
import { users } from './users';

/** The user's Spotify library ("liked songs"), mirrored: a like is a saved track. */
export const savedTracks = pgTable(
  'saved_tracks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    trackId: text('track_id')
      .notNull()
      .references(() => tracks.id),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.trackId] }),
    index('saved_tracks_user_added_idx').on(table.userId, table.addedAt),
    // Who likes a track (its page's like total), read from the index alone.
    index('saved_tracks_track_user_idx').on(table.trackId, table.userId),
  ],
);

/**
 * Likes removed in Earshot, remembered for a day: a library sync that read Spotify before the
 * removal reached it must not bring the like back (services/likes.ts).
 */
export const savedTrackRemovals = pgTable(
  'saved_track_removals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    trackId: text('track_id').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.trackId] })],
);

export const followedArtists = pgTable(
  'followed_artists',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    artistId: text('artist_id')
      .notNull()
      .references(() => artists.id),
  },
  (table) => [primaryKey({ columns: [table.userId, table.artistId] })],
);

/** Playlists as listed by Spotify (metadata; the items are read when a playlist is opened). */
export const playlists = pgTable('playlists', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  picture: text('picture'),
  ownerSpotifyId: text('owner_spotify_id').notNull(),
  ownerName: text('owner_name'),
  isPublic: boolean('is_public'),
  isCollaborative: boolean('is_collaborative').notNull(),
  trackCount: integer('track_count').notNull(),
  snapshotId: text('snapshot_id'),
  /** The `snapshot_id` whose items `playlist_items` holds; null until they were read. */
  itemsSnapshotId: text('items_snapshot_id'),
  itemsFetchedAt: timestamp('items_fetched_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The playlists in a user's library, in Spotify's order. */
export const userPlaylists = pgTable(
  'user_playlists',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    playlistId: text('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.playlistId] })],
);

/** A playlist's tracks as Spotify last listed them (read when the playlist page is opened). */
export const playlistItems = pgTable(
  'playlist_items',
  {
    playlistId: text('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    trackId: text('track_id')
      .notNull()
      .references(() => tracks.id),
    addedAt: timestamp('added_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.playlistId, table.position] })],
);
