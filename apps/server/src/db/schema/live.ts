import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * What happened, for the live streams (`GET /api/live`): written by triggers on plays, saved
 * tracks, friend requests and friendships (migration `live_events`), announced on the channel
 * `earshot_live` by id, kept a quarter of an hour so a reconnecting stream replays what it
 * missed. `user_id` is who acted (play, like, unlike) or, for `friendship`, who is told;
 * `other_id` the other person and `status` the friendship as `user_id` now sees it.
 *
 * No foreign keys: a deleted user's events simply match no one any more.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind', { enum: ['play', 'like', 'unlike', 'friendship'] }).notNull(),
    userId: uuid('user_id').notNull(),
    trackId: text('track_id'),
    /** When it was played or liked, as the feeds date it. */
    happenedAt: timestamp('happened_at', { withTimezone: true }),
    contextUri: text('context_uri'),
    otherId: uuid('other_id'),
    status: text('status'),
  },
  (table) => [index('live_events_at_idx').on(table.at)],
);

/**
 * What a user was last seen playing, asked of Spotify only while a friend watches (see
 * `services/now-playing.ts`). `checked_at` is also the lease that keeps every process from asking
 * more than once in 30 s; a change of track, pause or seek is announced on `earshot_live`.
 */
export const nowPlaying = pgTable('now_playing', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  trackId: text('track_id'),
  isPlaying: boolean('is_playing').notNull().default(false),
  progressMs: integer('progress_ms'),
  /** When Spotify reported the progress (for a paused track, the progress stays). */
  observedAt: timestamp('observed_at', { withTimezone: true }),
});
