import { sql } from 'drizzle-orm';
import { bigserial, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Plays started from Earshot and confirmed by Spotify's player: who played what, from which
 * Earshot source (docs/product.md, Play start). The social features read them; `next_track_id`
 * is what follows the track in the feed it was started from, worked out when it started.
 */
export const playedEvents = pgTable(
  'played_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    trackId: text('track_id').notNull(),
    source: text('source').notNull(),
    /** The user whose feed or page it was started from. */
    contextUserId: uuid('context_user_id').references(() => users.id, { onDelete: 'set null' }),
    contextUri: text('context_uri'),
    nextTrackId: text('next_track_id'),
    playedAt: timestamp('played_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (table) => [index('played_events_user_played_at_idx').on(table.userId, table.playedAt)],
);

export type PlayedEventRow = typeof playedEvents.$inferSelect;
