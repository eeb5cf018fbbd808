import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { artists } from './catalog';
import { users } from './users';

/**
 * What a user excludes from their stats and suggestions: songs (by uid) and artists. `reported`
 * asks the admins to make the ignore global; the report waits for them while `reviewedAt` is
 * null, and stays marked reported for the user once decided.
 */
export const ignoredTracks = pgTable(
  'ignored_tracks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    reported: boolean('reported').notNull().default(false),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.uid] }),
    index('ignored_tracks_pending_report_idx')
      .on(table.uid)
      .where(sql`${table.reported} AND ${table.reviewedAt} IS NULL`),
  ],
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
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.artistId] }),
    index('ignored_artists_pending_report_idx')
      .on(table.artistId)
      .where(sql`${table.reported} AND ${table.reviewedAt} IS NULL`),
  ],
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

/**
 * Every admin decision, kept as history: who decided (null once their account is deleted), when,
 * and on what. `targetLabel` keeps the title, name or e-mail as it was shown.
 */
export const moderationDecisions = pgTable(
  'moderation_decisions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', {
      enum: ['approve', 'reject', 'global_unignore', 'beta_accept'],
    }).notNull(),
    targetKind: text('target_kind', { enum: ['track', 'artist', 'beta'] }).notNull(),
    targetKey: text('target_key').notNull(),
    targetLabel: text('target_label').notNull(),
    /** How many users' reports the decision closed. */
    reportCount: integer('report_count').notNull().default(0),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('moderation_decisions_decided_idx').on(table.decidedAt)],
);

export type ModerationDecisionRow = typeof moderationDecisions.$inferSelect;
