import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * Leases the waiting rows of a table of background work (`waiting`: e.g. queued or running) whose
 * heartbeat is older than `staleSec`: new ones (heartbeat at the epoch) and those whose worker
 * died. Renews their heartbeat and answers their ids; rows another process holds are skipped, so
 * two processes never take the same one.
 */
export async function leaseWaitingRows(
  db: Db,
  table: PgTable & { id: PgColumn; heartbeatAt: PgColumn },
  waiting: SQL,
  staleSec: number,
): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${table} SET ${sql.identifier(table.heartbeatAt.name)} = now()
    WHERE ${table.id} IN (
      SELECT ${table.id} FROM ${table}
      WHERE ${waiting}
        AND ${table.heartbeatAt} < now() - make_interval(secs => ${staleSec})
      FOR UPDATE SKIP LOCKED)
    RETURNING ${table.id}`);
  return result.rows.map((row) => row.id);
}
