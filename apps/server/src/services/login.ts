import { randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { SpotifyConfig } from '../config';
import type { Db } from '../db/client';
import { oauthLogins } from '../db/schema/sessions';
import type { UserRow } from '../db/schema/users';
import { authorizationUrl, createPkcePair } from '../spotify/accounts';
import type { SpotifyClient } from '../spotify/client';
import { SpotifyError } from '../spotify/errors';
import type { TokenCipher } from './token-cipher';
import type { PrivateUser } from '../spotify/schemas';
import { upsertSpotifyUser } from './users';

/** How long a user may spend on Spotify's consent page before the attempt expires. */
export const LOGIN_ATTEMPT_TTL_MS = 15 * 60 * 1000;

/**
 * Holds the `state` of the login this browser started: a callback is accepted only from the
 * browser that began it, so nobody can log a victim into the attacker's account (login CSRF).
 */
export const LOGIN_STATE_COOKIE = 'earshot_login';

/** A login that cannot complete; `message` is shown to the user on the error page. */
export class LoginError extends Error {}

/** Invite-only mode refused to create an account for this Spotify user. */
export class NotInvitedError extends LoginError {
  constructor() {
    super('Earshot is invite-only for now.');
  }
}

/** Whether a Spotify user may log in (invite-only mode); absent when everyone may. */
export type Admission = (profile: PrivateUser) => Promise<boolean>;

/**
 * Records a new OAuth attempt (state + PKCE verifier); answers Spotify's authorization URL and the
 * state, which the browser keeps in `LOGIN_STATE_COOKIE`.
 */
export async function startLogin(db: Db, spotify: SpotifyConfig, returnTo: string) {
  const state = randomBytes(24).toString('base64url');
  const { verifier, challenge } = createPkcePair();
  await db.delete(oauthLogins).where(lt(oauthLogins.expiresAt, sql`now()`));
  await db.insert(oauthLogins).values({
    state,
    codeVerifier: verifier,
    returnTo,
    expiresAt: new Date(Date.now() + LOGIN_ATTEMPT_TTL_MS),
  });
  return { state, url: authorizationUrl(spotify, { state, codeChallenge: challenge }) };
}

function sameState(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The attempt for `state`, consumed: a state is good for one callback only. */
async function takeLoginAttempt(db: Db, state: string) {
  const [attempt] = await db.delete(oauthLogins).where(eq(oauthLogins.state, state)).returning();
  if (!attempt || attempt.expiresAt.getTime() < Date.now()) return undefined;
  return attempt;
}

export interface CallbackParams {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}

/**
 * Completes Spotify's redirect: checks that `state` is the one this browser started with
 * (`browserState`, from its cookie), exchanges the code with its PKCE verifier, reads the profile
 * and stores the user. Returns where the browser should go next.
 */
export async function completeLogin(
  db: Db,
  spotify: SpotifyClient,
  cipher: TokenCipher,
  params: CallbackParams,
  browserState: string | undefined,
  admission?: Admission,
): Promise<{ user: UserRow; returnTo: string }> {
  if (params.state && !(browserState && sameState(params.state, browserState))) {
    throw new LoginError(
      'This login was not started in this browser. Please connect again from here.',
    );
  }
  const attempt = params.state ? await takeLoginAttempt(db, params.state) : undefined;
  if (params.error) {
    throw new LoginError(
      params.error === 'access_denied'
        ? 'Spotify access was not granted.'
        : `Spotify refused the connection (${params.error}).`,
    );
  }
  if (!attempt) throw new LoginError('This login link has expired. Please connect again.');
  if (!params.code) throw new LoginError('Spotify did not send an authorization code.');
  try {
    const token = await spotify.exchangeAuthorizationCode(params.code, attempt.codeVerifier);
    if (!token.refresh_token) throw new LoginError('Spotify did not grant lasting access.');
    const profile = await spotify.currentUser(token.access_token);
    if (admission && !(await admission(profile))) throw new NotInvitedError();
    const user = await upsertSpotifyUser(db, cipher, profile, {
      ...token,
      refresh_token: token.refresh_token,
    });
    return { user, returnTo: attempt.returnTo };
  } catch (error) {
    if (error instanceof SpotifyError) {
      throw new LoginError(`Could not connect to Spotify: ${error.message}`);
    }
    throw error;
  }
}
