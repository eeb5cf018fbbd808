import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { spotifyAccounts } from '../db/schema/spotify-accounts';

// The one module that reads and writes `spotify_accounts`: a user's Spotify connection (tokens,
// encrypted by the caller), where each sync stands, and the schedule the dispatcher leases from.

export type SpotifyAccountRow = typeof spotifyAccounts.$inferSelect;

/** The encrypted grant of a connection, as stored. */
export interface StoredGrant {
  accessTokenEncrypted: string;
  refreshTokenEncrypted: string;
  accessTokenExpiresAt: Date;
  scopes: string;
}

/** Connects (or reconnects) a user's Spotify account with a new grant: active again. */
export async function saveSpotifyGrant(db: Db, userId: string, grant: StoredGrant) {
  const set = { ...grant, status: 'active' as const, updatedAt: new Date() };
  await db
    .insert(spotifyAccounts)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: spotifyAccounts.userId, set });
}

/** The user's account row; with `forUpdate` in a transaction, locked until it ends. */
export async function spotifyAccount(
  db: Db | Tx,
  userId: string,
  forUpdate = false,
): Promise<SpotifyAccountRow | undefined> {
  const query = db.select().from(spotifyAccounts).where(eq(spotifyAccounts.userId, userId));
  const [account] = forUpdate ? await query.for('update') : await query;
  return account;
}

/** Stores refreshed tokens (Spotify may or may not rotate the refresh token and scopes). */
export async function storeRefreshedGrant(
  db: Db | Tx,
  userId: string,
  grant: Pick<StoredGrant, 'accessTokenEncrypted' | 'accessTokenExpiresAt'> &
    Partial<Pick<StoredGrant, 'refreshTokenEncrypted' | 'scopes'>>,
) {
  await db
    .update(spotifyAccounts)
    .set({ ...grant, updatedAt: new Date() })
    .where(eq(spotifyAccounts.userId, userId));
}

/** Spotify refused the grant (`invalid_grant`): the user must connect again. */
export async function markSpotifyRevoked(db: Db, userId: string) {
  await db
    .update(spotifyAccounts)
    .set({ status: 'revoked', updatedAt: new Date() })
    .where(eq(spotifyAccounts.userId, userId));
}

export async function spotifyConnectionActive(db: Db, userId: string): Promise<boolean> {
  return (await spotifyAccount(db, userId))?.status === 'active';
}

/** Some user with a working connection, for work that is no one's (the catalogue's). */
export async function anyActiveAccountUserId(db: Db): Promise<string | undefined> {
  const [account] = await db
    .select({ userId: spotifyAccounts.userId })
    .from(spotifyAccounts)
    .where(eq(spotifyAccounts.status, 'active'))
    .limit(1);
  return account?.userId;
}

/** What a finished poll of recently-played leaves for the next one. */
export interface RecentSyncOutcome {
  cursorMs: number | null;
  intervalSec: number;
  nextDueAt: Date;
  /** When the poll found Spotify's window full (older plays may be missing). */
  gapAt: Date | null;
  at: Date;
}

export async function recordRecentSync(db: Db, userId: string, outcome: RecentSyncOutcome) {
  await db
    .update(spotifyAccounts)
    .set({
      recentCursorMs: outcome.cursorMs,
      recentSyncedAt: outcome.at,
      recentIntervalSec: outcome.intervalSec,
      recentDueAt: outcome.nextDueAt,
      ...(outcome.gapAt && { recentGapAt: outcome.gapAt }),
      trackingSince: sql`coalesce(${spotifyAccounts.trackingSince}, now())`,
    })
    .where(eq(spotifyAccounts.userId, userId));
}

export async function recordLibrarySync(
  db: Db,
  userId: string,
  { nextDueAt, reconciled }: { nextDueAt: Date; reconciled: boolean },
) {
  const now = new Date();
  await db
    .update(spotifyAccounts)
    .set({
      librarySyncedAt: now,
      libraryDueAt: nextDueAt,
      ...(reconciled && { savedTracksReconciledAt: now }),
    })
    .where(eq(spotifyAccounts.userId, userId));
}

/**
 * While a sync job is queued or running, its account's due time is pushed this far ahead (a
 * lease). The job sets the real next due time when it ends; if its worker dies, the lease runs
 * out and the account is dispatched again: no job is lost, and none is queued twice meanwhile.
 */
export const RECENT_LEASE_SEC = 5 * 60;
export const LIBRARY_LEASE_SEC = 30 * 60;
/**
 * Once a sync runs, its lease is this short and renewed every SYNC_HEARTBEAT_SEC: a worker that
 * dies mid-sync (kill -9, a lost machine) leaves its account due again within seconds, not after
 * the queued lease's minutes.
 */
export const SYNC_RUNNING_LEASE_SEC = 20;
export const SYNC_HEARTBEAT_SEC = 5;
const DISPATCH_BATCH = 500;

export type DueColumn = 'recent_due_at' | 'library_due_at';

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

/**
 * Puts a sync that starts running on its short lease, in place of the queued one. Answers the
 * lease as stored (exact text), for `renewRunningLease`.
 */
export async function startRunningLease(
  db: Db,
  userId: string,
  column: DueColumn,
): Promise<string | undefined> {
  const due = sql.raw(column);
  const result = await db.execute<{ lease: string }>(sql`
    UPDATE spotify_accounts SET ${due} = now() + make_interval(secs => ${SYNC_RUNNING_LEASE_SEC})
    WHERE user_id = ${userId}
    RETURNING ${due}::text AS lease`);
  return result.rows[0]?.lease;
}

/**
 * Renews a running sync's lease, only while the due time is still the lease set last: once the
 * sync has scheduled its next run, a late renewal must not overwrite it. Answers the new lease,
 * or undefined when the sync's own due time is there.
 */
export async function renewRunningLease(
  db: Db,
  userId: string,
  column: DueColumn,
  lease: string,
): Promise<string | undefined> {
  const due = sql.raw(column);
  const result = await db.execute<{ lease: string }>(sql`
    UPDATE spotify_accounts SET ${due} = now() + make_interval(secs => ${SYNC_RUNNING_LEASE_SEC})
    WHERE user_id = ${userId} AND ${due} = ${lease}::timestamptz
    RETURNING ${due}::text AS lease`);
  return result.rows[0]?.lease;
}

/** Makes a failed sync due again at `at` (the dispatcher retries it, not the job queue). */
export async function retrySyncAt(db: Db, userId: string, column: DueColumn, at: Date) {
  const due = sql.raw(column);
  await db.execute(sql`
    UPDATE spotify_accounts SET ${due} = ${at.toISOString()}::timestamptz WHERE user_id = ${userId}`);
}
