import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions } from '../db/schema/sessions';
import { users, type UserRow } from '../db/schema/users';

export const SESSION_COOKIE = 'earshot_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Sliding expiry is renewed at most this often, so reads do not write on every request. */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');

/** Creates a session and returns the secret id for the cookie; only its hash is stored. */
export async function createSession(db: Db, userId: string): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await db.insert(sessions).values({
    idHash: hashSessionId(id),
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return id;
}

export interface LiveSession {
  user: UserRow;
  /** Whether its sliding expiry was just renewed (re-send the cookie). */
  renewed: boolean;
  expiresAt: Date;
}

/** When a session read at `expiresAt` is due for renewal (until then it needs no write). */
export const renewalDueAt = (expiresAt: Date) =>
  expiresAt.getTime() - SESSION_TTL_MS + RENEW_AFTER_MS;

/** The session's user, renewing its sliding expiry when due. */
export async function userForSession(db: Db, idHash: string): Promise<LiveSession | undefined> {
  const [row] = await db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, sql`now()`)));
  if (!row) return undefined;
  if (Date.now() < renewalDueAt(row.expiresAt)) {
    return { user: row.user, renewed: false, expiresAt: row.expiresAt };
  }
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.idHash, idHash));
  return { user: row.user, renewed: true, expiresAt };
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, hashSessionId(sessionId)));
}
