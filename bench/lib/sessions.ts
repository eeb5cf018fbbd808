import { createHash, randomBytes } from 'node:crypto';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../../apps/server/src/services/sessions';
import type { Queryable } from './postgres';

/**
 * Logs users in without the OAuth flow: a session row per user, stored as Earshot stores them
 * (the SHA-256 of the cookie's secret), valid long enough never to be renewed during a run.
 * Returns the `cookie` header for each user, in the order given.
 */
export async function createSessions(db: Queryable, userIds: readonly string[]): Promise<string[]> {
  const secrets = userIds.map(() => randomBytes(32).toString('base64url'));
  const hashes = secrets.map((secret) => createHash('sha256').update(secret).digest('hex'));
  await db.query(
    `INSERT INTO sessions (id_hash, user_id, expires_at)
     SELECT h, u, now() + make_interval(secs => $3::float8)
     FROM unnest($1::text[], $2::uuid[]) AS s(h, u)`,
    [hashes, userIds, SESSION_TTL_MS / 1000],
  );
  return secrets.map((secret) => `${SESSION_COOKIE}=${secret}`);
}
