import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
