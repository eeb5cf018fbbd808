import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * One upload of Spotify's listening-history export and how far its import went. Files are
 * imported one transaction each, and `files_done` moves in the same transaction, so a restart
 * resumes after the last whole file and nothing is ever half-counted.
 */
export const historyImports = pgTable(
  'history_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['queued', 'running', 'done', 'failed'] }).notNull(),
    /** The stored upload, deleted once the import ends. */
    archivePath: text('archive_path').notNull(),
    /** Entry names of the history files in the ZIP, in import order. */
    files: jsonb('files').$type<string[]>().notNull(),
    filesDone: integer('files_done').notNull().default(0),
    rowsRead: integer('rows_read').notNull().default(0),
    playsAdded: integer('plays_added').notNull().default(0),
    /** Rows not imported, per reason (podcast, short, incognito, duplicate, malformed, …). */
    skipped: jsonb('skipped').$type<Record<string, number>>().notNull().default({}),
    errors: jsonb('errors').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Renewed while a worker runs it; a stale heartbeat means the worker died. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('history_imports_user_idx').on(table.userId, table.createdAt),
    // Two uploads at once for one user are refused.
    uniqueIndex('history_imports_one_active_idx')
      .on(table.userId)
      .where(sql`${table.state} in ('queued', 'running')`),
  ],
);

export type HistoryImportRow = typeof historyImports.$inferSelect;

/**
 * An upload arriving now, one row per user, seen by every API process: the upload gate admits a
 * second upload of the same user, or one past the disk bound, only when no row says otherwise.
 * A row is renewed while its upload streams; one left by a process that died expires.
 */
export const uploadReservations = pgTable('upload_reservations', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Which upload holds the row: a release never frees a later upload's reservation. */
  token: uuid('token').notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
