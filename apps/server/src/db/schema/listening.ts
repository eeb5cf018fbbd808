import {
  bigint,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * One listen of a track by a user. `played_at` is when it ended, as Spotify reports it; a user
 * cannot finish two plays at the same instant, which makes (user, played_at) the natural key
 * that keeps every insert idempotent.
 *
 * `track_id` is not a foreign key, here nor in the aggregates below: the catalogue only grows
 * (songs merge by `uid`; no track is ever deleted) and every write takes its tracks from the
 * catalogue in the same transaction. Checking the key locked the track row once per play, a
 * third of a 10-year import's time (decision 0010).
 */
export const plays = pgTable(
  'plays',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    playedAt: timestamp('played_at', { withTimezone: true }).notNull(),
    trackId: text('track_id').notNull(),
    contextUri: text('context_uri'),
    source: text('source', { enum: ['api', 'extended_history', 'account_data'] }).notNull(),
    msPlayed: integer('ms_played'),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.playedAt] }),
    // By track, newest first: a track's latest listeners (similar tracks) without a sort.
    index('plays_track_played_idx').on(table.trackId, table.playedAt, table.userId),
  ],
);

/**
 * Per user and track: plays and listening time, kept up to date by a trigger on `plays` (see the
 * migration `plays_aggregates`), so profiles never scan a user's history.
 */
export const userTrackStats = pgTable(
  'user_track_stats',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    trackId: text('track_id').notNull(),
    plays: integer('plays').notNull(),
    msPlayed: bigint('ms_played', { mode: 'number' }).notNull(),
    lastPlayedAt: timestamp('last_played_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.trackId] }),
    // Who played a track: the catalogue's triggers move these aggregates when a track changes
    // song, album or credits.
    index('user_track_stats_track_idx').on(table.trackId),
  ],
);

/**
 * The same per UTC day: the last 30 days' songs. By track too, for the few tracks whose plays a
 * profile must take out of the per-day totals below (ignored ones). Profiles read at most 52
 * weeks back, so the trigger writes only the last 400 days (see `aggregate_recent_days_only`).
 */
export const userTrackDays = pgTable(
  'user_track_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    trackId: text('track_id').notNull(),
    plays: integer('plays').notNull(),
    msPlayed: bigint('ms_played', { mode: 'number' }).notNull(),
  },
  (table) => [
    // Migration 0024 adds INCLUDE (plays), which Drizzle cannot say: Discover sums a window's
    // days from this index alone.
    primaryKey({ columns: [table.userId, table.day, table.trackId] }),
    index('user_track_days_user_track_idx').on(table.userId, table.trackId, table.day, table.plays),
  ],
);

/*
 * Coarser aggregates, kept by the same trigger, so that a profile costs the same for a million
 * plays as for a hundred: per day (totals, last 30 days, weekly chart), per credited artist
 * (artists, genre, top artists, taste match), per album (decade) and per song (top songs, by
 * uid: a statement-level trigger on `tracks` moves them when songs merge). Ignored tracks are
 * taken out when a profile is read, from the few such tracks the user played.
 */

export const userDays = pgTable(
  'user_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    plays: integer('plays').notNull(),
    msPlayed: bigint('ms_played', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);

export const userArtistStats = pgTable(
  'user_artist_stats',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    artistId: text('artist_id').notNull(),
    plays: integer('plays').notNull(),
    msPlayed: bigint('ms_played', { mode: 'number' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.artistId] }),
    // Search ranks artists by how many Earshot users play them.
    index('user_artist_stats_artist_idx').on(table.artistId),
  ],
);

export const userAlbumStats = pgTable(
  'user_album_stats',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    albumId: text('album_id').notNull(),
    plays: integer('plays').notNull(),
    msPlayed: bigint('ms_played', { mode: 'number' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.albumId] }),
    // Search ranks albums by how many Earshot users play them.
    index('user_album_stats_album_idx').on(table.albumId),
  ],
);

export const userSongStats = pgTable(
  'user_song_stats',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    plays: integer('plays').notNull(),
    msPlayed: bigint('ms_played', { mode: 'number' }).notNull(),
    /** The last play of any version (migration `song_last_played`, decision 0036). */
    lastPlayedAt: timestamp('last_played_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.uid] }),
    // Top songs: the most played first (then by uid, as Like Your On-Repeat lists them).
    index('user_song_stats_user_plays_idx').on(table.userId, table.plays.desc(), table.uid),
    // The songs a user played lately (Popular with Friends), read from the index alone.
    index('user_song_stats_user_last_played_idx').on(table.userId, table.lastPlayedAt, table.uid),
  ],
);

/**
 * Each user's plays of each song in the last `days` days (Like Your On-Repeat's long windows,
 * decision 0039): the plays trigger adds plays after the window's `floor`, and the reader rolls
 * the window forward when the day changes (`services/song-windows.ts`, which owns both tables).
 */
export const userSongWindowFloors = pgTable(
  'user_song_window_floors',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    days: smallint('days').notNull(),
    /** Plays of the days after this one are counted. */
    floor: date('floor', { mode: 'string' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.days] })],
);

export const userSongWindows = pgTable(
  'user_song_windows',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    days: smallint('days').notNull(),
    uid: text('uid').notNull(),
    plays: integer('plays').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.days, table.uid] }),
    // The window's songs, most played first (then by uid, as Like Your On-Repeat lists them).
    index('user_song_windows_user_plays_idx').on(
      table.userId,
      table.days,
      table.plays.desc(),
      table.uid,
    ),
  ],
);
