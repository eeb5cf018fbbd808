import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * What search finds a name by from here: the names that start with the query, exact ones first
 * (B-tree in folded order). `earshot_fold` is lower case without accents, defined by the
 * migration `search`; words anywhere are in the word tables (`schema/search.ts`).
 */
function namePrefixIndex(tableName: string, name: AnyPgColumn) {
  return index(`${tableName}_name_fold_prefix_idx`).using(
    'btree',
    sql`(earshot_fold(${name}) COLLATE "C")`,
  );
}

/**
 * Spotify's catalogue as Earshot has seen it. Rows arrive from any Spotify answer (recent plays,
 * saved tracks, lookups); `enriched_at` is null until the full object was fetched, which is what
 * the enrichment job looks for. Deprecated fields (genres, popularity, followers) stay null where
 * the app's mode hides them.
 */
export const artists = pgTable(
  'artists',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    genres: text('genres').array(),
    popularity: integer('popularity'),
    followers: bigint('followers', { mode: 'number' }),
    picture: text('picture'),
    enrichedAt: timestamp('enriched_at', { withTimezone: true }),
    /** When the artist's releases were last read from Spotify (the artist page's Albums tab). */
    albumsFetchedAt: timestamp('albums_fetched_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [namePrefixIndex('artists', table.name)],
);

export const albums = pgTable(
  'albums',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    albumType: text('album_type'),
    releaseDate: text('release_date'),
    releaseDatePrecision: text('release_date_precision'),
    totalTracks: integer('total_tracks'),
    picture: text('picture'),
    enrichedAt: timestamp('enriched_at', { withTimezone: true }),
    /** When the album's track list was last read from Spotify (the album page). */
    tracksFetchedAt: timestamp('tracks_fetched_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [namePrefixIndex('albums', table.name)],
);

export const albumArtists = pgTable(
  'album_artists',
  {
    albumId: text('album_id')
      .notNull()
      .references(() => albums.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    artistId: text('artist_id')
      .notNull()
      .references(() => artists.id),
  },
  (table) => [
    primaryKey({ columns: [table.albumId, table.position] }),
    index('album_artists_artist_idx').on(table.artistId),
  ],
);

export const tracks = pgTable(
  'tracks',
  {
    id: text('id').primaryKey(),
    /** The song this Spotify track is a version of (ARCHITECTURE "Domain words"). */
    uid: text('uid').notNull(),
    name: text('name').notNull(),
    albumId: text('album_id').references(() => albums.id),
    durationMs: integer('duration_ms'),
    popularity: integer('popularity'),
    explicit: boolean('explicit'),
    isrc: text('isrc'),
    /** Normalised title + primary artist: the song identity when no ISRC matches. */
    titleKey: text('title_key').notNull(),
    /** Title, album and artists without accents or case, for the feed's search (trigram index). */
    searchText: text('search_text').notNull().default(''),
    trackNumber: integer('track_number'),
    discNumber: integer('disc_number'),
    enrichedAt: timestamp('enriched_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('tracks_uid_idx').on(table.uid),
    // The tracks that are not their song's first version, with their song: a track's song is
    // looked up here, a small index, instead of in every track (Discover, migration 0021).
    index('tracks_version_uid_idx')
      .on(table.id, table.uid)
      .where(sql`${table.uid} <> ${table.id}`),
    index('tracks_isrc_idx').on(table.isrc),
    index('tracks_title_key_idx').on(table.titleKey),
    index('tracks_album_idx').on(table.albumId),
    index('tracks_search_text_idx').using('gin', sql`${table.searchText} gin_trgm_ops`),
    // Search: exact and prefix title matches first (see `earshot_fold`, migration `search`).
    index('tracks_name_fold_prefix_idx').using(
      'btree',
      sql`(earshot_fold(${table.name}) COLLATE "C")`,
    ),
  ],
);

export const trackArtists = pgTable(
  'track_artists',
  {
    trackId: text('track_id')
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    artistId: text('artist_id')
      .notNull()
      .references(() => artists.id),
  },
  (table) => [
    primaryKey({ columns: [table.trackId, table.position] }),
    index('track_artists_artist_idx').on(table.artistId),
  ],
);

/** Song ids merged away, so links and keys that used them still resolve. */
export const uidRedirects = pgTable('uid_redirects', {
  fromUid: text('from_uid').primaryKey(),
  toUid: text('to_uid').notNull(),
  mergedAt: timestamp('merged_at', { withTimezone: true }).notNull().defaultNow(),
});
