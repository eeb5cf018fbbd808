import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * One "Download my data" export: a ZIP written by a job to `file_path` (as `<file_path>.part`
 * until it is whole), with its progress. The file is deleted with the row: when it expires,
 * when the user starts another export, or with the account.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'running', 'ready', 'failed'] }).notNull(),
    /** The ZIP entry being written while running. */
    phase: text('phase'),
    rowsWritten: integer('rows_written').notNull().default(0),
    rowsTotal: integer('rows_total').notNull().default(0),
    filePath: text('file_path').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    /** Why it failed, as shown to the user. */
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Renewed while a worker writes it; a stale heartbeat means the worker died. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('data_exports_user_idx').on(table.userId, table.createdAt),
    index('data_exports_finished_idx').on(table.finishedAt),
    // One export at a time per user: a second start answers the running one.
    uniqueIndex('data_exports_one_active_idx')
      .on(table.userId)
      .where(sql`${table.status} in ('pending', 'running')`),
  ],
);

export type DataExportRow = typeof dataExports.$inferSelect;
