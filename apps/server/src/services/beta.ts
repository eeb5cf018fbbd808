import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { betaRequests } from '../db/schema/beta';

/**
 * Records a request for beta access, once per address. A repeat changes nothing, and the caller
 * answers the same either way: whether an address is known is never revealed.
 */
export async function requestBetaAccess(db: Db, email: string): Promise<void> {
  await db.insert(betaRequests).values({ email }).onConflictDoNothing();
}

/** Addresses waiting for an admin, oldest first. */
export async function pendingBetaEmails(db: Db): Promise<string[]> {
  const rows = await db
    .select({ email: betaRequests.email })
    .from(betaRequests)
    .where(isNull(betaRequests.acceptedAt))
    .orderBy(betaRequests.requestedAt, betaRequests.email);
  return rows.map((row) => row.email);
}

/**
 * Lets an address in: a pending request, or an address an admin invites directly. Answers
 * whether anything changed (accepting twice is not a new decision).
 */
export async function acceptBetaAccess(tx: Tx, email: string, adminId: string): Promise<boolean> {
  const accepted = await tx
    .insert(betaRequests)
    .values({ email, acceptedAt: new Date(), acceptedBy: adminId })
    .onConflictDoUpdate({
      target: betaRequests.email,
      set: { acceptedAt: new Date(), acceptedBy: adminId },
      setWhere: isNull(betaRequests.acceptedAt),
    })
    .returning({ email: betaRequests.email });
  return accepted.length > 0;
}

/** Whether an admin accepted the address (invite-only mode lets only these create accounts). */
export async function isBetaAccepted(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: betaRequests.email })
    .from(betaRequests)
    .where(and(eq(betaRequests.email, email.toLowerCase()), isNotNull(betaRequests.acceptedAt)));
  return row !== undefined;
}
