import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The Spotify connection of a user: tokens encrypted at rest (AES-256-GCM), and where each sync
 * stands. `*_due_at` is the truth the dispatcher schedules from; jobs move it forward.
 */
export const spotifyAccounts = pgTable(
  'spotify_accounts',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessTokenEncrypted: text('access_token_encrypted').notNull(),
    refreshTokenEncrypted: text('refresh_token_encrypted').notNull(),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }).notNull(),
    scopes: text('scopes').notNull(),
    /** `revoked` once Spotify answers invalid_grant: the user must connect again. */
    status: text('status', { enum: ['active', 'revoked'] })
      .notNull()
      .default('active'),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** First successful sync: the start of the user's polled history. */
    trackingSince: timestamp('tracking_since', { withTimezone: true }),
    /** `after` cursor of recently-played (ms): the newest play already stored. */
    recentCursorMs: bigint('recent_cursor_ms', { mode: 'number' }),
    recentSyncedAt: timestamp('recent_synced_at', { withTimezone: true }),
    recentDueAt: timestamp('recent_due_at', { withTimezone: true }).notNull().defaultNow(),
    /** Current adaptive polling interval. */
    recentIntervalSec: integer('recent_interval_sec'),
    /**
     * The last poll that found Spotify's 50-play window full of new plays: older plays may have
     * fallen out of it unseen. The import page tells the user; an import fills the gap.
     */
    recentGapAt: timestamp('recent_gap_at', { withTimezone: true }),
    librarySyncedAt: timestamp('library_synced_at', { withTimezone: true }),
    libraryDueAt: timestamp('library_due_at', { withTimezone: true }).notNull().defaultNow(),
    /** Last full pass over saved tracks (removals made in Spotify's apps show up then). */
    savedTracksReconciledAt: timestamp('saved_tracks_reconciled_at', { withTimezone: true }),
  },
  (table) => [
    index('spotify_accounts_recent_due_idx').on(table.recentDueAt),
    index('spotify_accounts_library_due_idx').on(table.libraryDueAt),
  ],
);
