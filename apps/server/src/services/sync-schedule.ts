import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

// The sync schedule kept on each Spotify account: which accounts are due, and leasing them.

/**
 * While a sync job is queued or running, its account's due time is pushed this far ahead (a
 * lease). The job sets the real next due time when it ends; if its worker dies, the lease runs
 * out and the account is dispatched again: no job is lost, and none is queued twice meanwhile.
 */
export const RECENT_LEASE_SEC = 5 * 60;
export const LIBRARY_LEASE_SEC = 30 * 60;
const DISPATCH_BATCH = 500;

type DueColumn = 'recent_due_at' | 'library_due_at';

/** Takes up to 500 active accounts whose `column` is due, leasing them; returns their users. */
export async function leaseDueAccounts(
  db: Db,
  column: DueColumn,
  leaseSec: number,
): Promise<string[]> {
  const due = sql.raw(column);
  const result = await db.execute<{ user_id: string }>(sql`
    UPDATE spotify_accounts SET ${due} = now() + make_interval(secs => ${leaseSec})
    WHERE user_id IN (
      SELECT user_id FROM spotify_accounts
      WHERE status = 'active' AND ${due} <= now()
      ORDER BY ${due}
      LIMIT ${DISPATCH_BATCH}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING user_id`);
  return result.rows.map((row) => row.user_id);
}

/** Makes a user's syncs due now: right after connecting, nothing waits for the schedule. */
export async function syncSoon(db: Db, userId: string): Promise<void> {
  await db.execute(sql`
    UPDATE spotify_accounts SET recent_due_at = now(), library_due_at = now()
    WHERE user_id = ${userId}`);
}
