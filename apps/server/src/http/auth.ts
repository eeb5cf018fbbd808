import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNED_IN_COOKIE } from '@earshot/contract/session';
import { LRUCache } from 'lru-cache';
import type { DataChanges } from '../db/changes';
import type { Db } from '../db/client';
import type { UserRow } from '../db/schema/users';
import {
  SESSION_COOKIE,
  SESSION_TTL_MS,
  hashSessionId,
  renewalDueAt,
  userForSession,
} from '../services/sessions';
import { HttpError } from '../errors';
import { isAdminEmail } from '../services/users';

/** Sessions remembered by this process (a few hundred bytes each). */
const SESSION_CACHE_ENTRIES = 50_000;

interface CachedSession {
  user: UserRow;
  renewalDueAt: number;
  /** `changes.version()` before the session was read. */
  version: number;
}

/**
 * The session's user, from memory while nothing about it changed (logging out, a change of the
 * user: see `DataChanges`) and no renewal is due, else from the database.
 */
function sessionReader(db: Db, changes: DataChanges) {
  const cache = new LRUCache<string, CachedSession>({ max: SESSION_CACHE_ENTRIES });
  return async (sessionId: string): Promise<{ user: UserRow; renewed: boolean } | undefined> => {
    const idHash = hashSessionId(sessionId);
    const cached = cache.get(idHash);
    if (
      cached &&
      Date.now() < cached.renewalDueAt &&
      // A like changes nothing of a session.
      !changes.changedSince(cached.version, [cached.user.id], false, [])
    ) {
      return { user: cached.user, renewed: false };
    }
    const version = changes.version();
    const session = await userForSession(db, idHash);
    if (!session) {
      cache.delete(idHash);
      return undefined;
    }
    cache.set(idHash, {
      user: session.user,
      renewalDueAt: renewalDueAt(session.expiresAt),
      version,
    });
    return { user: session.user, renewed: session.renewed };
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser`. */
    user: UserRow | null;
  }
}

export interface Auth {
  /** preHandler: 401 unless the request carries a live session. */
  requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * preValidation (so before the input is looked at): 401 for visitors, 403 for users who are
   * not admins.
   */
  requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** preHandler for pages visitors may see too: sets `request.user` when logged in. */
  identifyUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  setSessionCookie(reply: FastifyReply, sessionId: string): void;
  clearSessionCookie(reply: FastifyReply): void;
  /**
   * For a page's HTML: gives a browser holding a session cookie the signed-in hint it lacks (a
   * session begun before the hint existed), so the app asks who it is.
   */
  markSignedIn(request: FastifyRequest, reply: FastifyReply): void;
}

export function createAuth(
  db: Db,
  changes: DataChanges,
  secureCookies: boolean,
  adminEmails: ReadonlySet<string>,
): Auth {
  const readSession = sessionReader(db, changes);
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookies,
  };
  const hintOptions = { ...cookieOptions, httpOnly: false, maxAge: SESSION_TTL_MS / 1000 };
  const setSessionCookie = (reply: FastifyReply, sessionId: string) => {
    reply.setCookie(SESSION_COOKIE, sessionId, { ...cookieOptions, maxAge: SESSION_TTL_MS / 1000 });
    reply.setCookie(SIGNED_IN_COOKIE, '1', hintOptions);
  };
  const clearSessionCookie = (reply: FastifyReply) => {
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    reply.clearCookie(SIGNED_IN_COOKIE, { ...cookieOptions, httpOnly: false });
  };
  const identify = async (request: FastifyRequest, reply: FastifyReply) => {
    const sessionId = request.cookies[SESSION_COOKIE];
    const session = sessionId ? await readSession(sessionId) : undefined;
    if (sessionId && session?.renewed) setSessionCookie(reply, sessionId);
    // An ended or expired session: the browser stops saying it is signed in.
    if (sessionId && !session) clearSessionCookie(reply);
    request.user = session?.user ?? null;
  };
  return {
    async requireUser(request, reply) {
      await identify(request, reply);
      if (!request.user) throw new HttpError(401, 'Not logged in');
    },
    async requireAdmin(request, reply) {
      await identify(request, reply);
      if (!request.user) throw new HttpError(401, 'Not logged in');
      if (!isAdminEmail(request.user.email, adminEmails)) {
        throw new HttpError(403, 'Only admins may do this');
      }
    },
    identifyUser: identify,
    setSessionCookie,
    clearSessionCookie,
    markSignedIn(request, reply) {
      if (request.cookies[SESSION_COOKIE] && !request.cookies[SIGNED_IN_COOKIE]) {
        reply.setCookie(SIGNED_IN_COOKIE, '1', hintOptions);
      }
    },
  };
}

/** The user a `requireUser` preHandler established. */
export function signedInUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new HttpError(401, 'Not logged in');
  return request.user;
}
