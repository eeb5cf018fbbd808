import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import type { UserRow } from '../db/schema/users';
import { SESSION_COOKIE, SESSION_TTL_MS, userForSession } from '../services/sessions';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser`. */
    user: UserRow | null;
  }
}

export interface Auth {
  /** preHandler: 401 unless the request carries a live session. */
  requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** preHandler for pages visitors may see too: sets `request.user` when logged in. */
  identifyUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  setSessionCookie(reply: FastifyReply, sessionId: string): void;
  clearSessionCookie(reply: FastifyReply): void;
}

export function createAuth(db: Db, secureCookies: boolean): Auth {
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookies,
  };
  const setSessionCookie = (reply: FastifyReply, sessionId: string) => {
    reply.setCookie(SESSION_COOKIE, sessionId, { ...cookieOptions, maxAge: SESSION_TTL_MS / 1000 });
  };
  const identify = async (request: FastifyRequest, reply: FastifyReply) => {
    const sessionId = request.cookies[SESSION_COOKIE];
    const session = sessionId ? await userForSession(db, sessionId) : undefined;
    if (sessionId && session?.renewed) setSessionCookie(reply, sessionId);
    request.user = session?.user ?? null;
  };
  return {
    async requireUser(request, reply) {
      await identify(request, reply);
      if (!request.user) throw new HttpError(401, 'Not logged in');
    },
    identifyUser: identify,
    setSessionCookie,
    clearSessionCookie(reply) {
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
    },
  };
}

/** The user a `requireUser` preHandler established. */
export function signedInUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new HttpError(401, 'Not logged in');
  return request.user;
}
