import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { betaRequests } from '../db/schema/beta';
import { users } from '../db/schema/users';
import type { PrivateUser } from '../spotify/schemas';
import { isAdminEmail } from './users';

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

/** Forgets an address (its owner deleted their account). */
export async function forgetBetaAddress(tx: Tx, email: string): Promise<void> {
  await tx.delete(betaRequests).where(eq(betaRequests.email, email.toLowerCase()));
}

/** Whether an admin accepted the address (invite-only mode lets only these create accounts). */
export async function isBetaAccepted(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: betaRequests.email })
    .from(betaRequests)
    .where(and(eq(betaRequests.email, email.toLowerCase()), isNotNull(betaRequests.acceptedAt)));
  return row !== undefined;
}

/**
 * Invite-only mode: who may log in. Existing accounts keep their access; a new account needs an
 * admin's address or an accepted beta request. Without an e-mail (Spotify hides it from apps in
 * Development Mode, which Spotify itself limits to the users listed in its dashboard) nobody
 * new can be matched, so nobody new is let in.
 */
export async function admitsInviteOnly(
  db: Db,
  profile: PrivateUser,
  adminEmails: ReadonlySet<string>,
): Promise<boolean> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.spotifyId, profile.id));
  if (existing) return true;
  const email = profile.email ?? null;
  if (email === null) return false;
  return isAdminEmail(email, adminEmails) || (await isBetaAccepted(db, email));
}
