import type { AuthorizationStore, AccessToken } from '../accounts/store';

export type BearerCheck =
  { ok: true; token: AccessToken } | { ok: false; status: 400 | 401; message: string };

/** Checks the `Authorization` header of a Web API request, worded as Spotify words it. */
export function checkBearer(header: string | undefined, store: AuthorizationStore): BearerCheck {
  if (header === undefined || header.trim() === '') {
    return { ok: false, status: 401, message: 'No token provided' };
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    return { ok: false, status: 400, message: 'Only valid bearer authentication supported' };
  }
  const found = store.findAccessToken(match[1]);
  if (found.ok) return { ok: true, token: found.value };
  return found.reason === 'expired'
    ? { ok: false, status: 401, message: 'The access token expired' }
    : { ok: false, status: 401, message: 'Invalid access token' };
}
