import {
  bigint,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { tracks } from './catalog';
import { users } from './users';

/**
 * One listen of a track by a user. `played_at` is when it ended, as Spotify reports it; a user
 * cannot finish two plays at the same instant, which makes (user, played_at) the natural key
 * that keeps every insert idempotent.
 */
export const plays = pgTable(
  'plays',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    playedAt: timestamp('played_at', { withTimezone: true }).notNull(),
    trackId: text('track_id')
      .notNull()
      .references(() => tracks.id),
    contextUri: text('context_uri'),
    source: text('source', { enum: ['api', 'extended_history', 'account_data'] }).notNull(),
    msPlayed: integer('ms_played'),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.playedAt] }),
    index('plays_track_idx').on(table.trackId),
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
    trackId: text('track_id')
      .notNull()
      .references(() => tracks.id),
    plays: integer('plays').notNull(),
    msPlayed: bigint('ms_played', { mode: 'number' }).notNull(),
    lastPlayedAt: timestamp('last_played_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.trackId] })],
);

/** The same per UTC day: the last 30 days, and the weekly activity chart. */
export const userTrackDays = pgTable(
  'user_track_days',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    trackId: text('track_id')
      .notNull()
      .references(() => tracks.id),
    plays: integer('plays').notNull(),
    msPlayed: bigint('ms_played', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day, table.trackId] })],
);
