import type { Db } from '../db/client';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { SpotifyGrantRevokedError } from '../spotify/errors';
import {
  anyActiveAccountUserId,
  markSpotifyRevoked,
  spotifyAccount,
  storeRefreshedGrant,
} from './spotify-accounts';
import type { TokenCipher } from './token-cipher';

/** Tokens are refreshed this long before they expire, so no call goes out with a dying one. */
const REFRESH_AHEAD_MS = 60_000;

/** The user has no working Spotify connection: they must connect again. */
export class SpotifyDisconnectedError extends Error {
  constructor(readonly userId: string) {
    super('Spotify is not connected');
    this.name = 'SpotifyDisconnectedError';
  }
}

/**
 * A user's Spotify access token from the database, refreshed ahead of expiry and when Spotify
 * refuses it. Refreshes run under the account's row lock: PKCE refresh tokens are single-use,
 * so two processes must never spend the same one. `invalid_grant` marks the account revoked.
 */
export function tokenSourceFor(
  db: Db,
  cipher: TokenCipher,
  spotify: SpotifyClient,
  userId: string,
): TokenSource {
  let lastToken: string | undefined;

  async function refresh(refused: string | undefined): Promise<string> {
    try {
      return await db.transaction(async (tx) => {
        const account = await spotifyAccount(tx, userId, true);
        if (!account || account.status !== 'active') throw new SpotifyDisconnectedError(userId);
        const current = cipher.decrypt(account.accessTokenEncrypted);
        const fresh = account.accessTokenExpiresAt.getTime() - Date.now() > REFRESH_AHEAD_MS;
        // Another process refreshed while we waited for the lock: use its token.
        if (fresh && current !== refused) return current;
        const token = await spotify.refreshAccessToken(
          cipher.decrypt(account.refreshTokenEncrypted),
        );
        await storeRefreshedGrant(tx, userId, {
          accessTokenEncrypted: cipher.encrypt(token.access_token),
          accessTokenExpiresAt: new Date(Date.now() + token.expires_in * 1000),
          ...(token.refresh_token && {
            refreshTokenEncrypted: cipher.encrypt(token.refresh_token),
          }),
          ...(token.scope && { scopes: token.scope }),
        });
        return token.access_token;
      });
    } catch (error) {
      if (error instanceof SpotifyGrantRevokedError) {
        await markSpotifyRevoked(db, userId);
        throw new SpotifyDisconnectedError(userId);
      }
      throw error;
    }
  }

  return {
    async accessToken() {
      const account = await spotifyAccount(db, userId);
      if (!account || account.status !== 'active') throw new SpotifyDisconnectedError(userId);
      if (account.accessTokenExpiresAt.getTime() - Date.now() > REFRESH_AHEAD_MS) {
        lastToken = cipher.decrypt(account.accessTokenEncrypted);
      } else {
        lastToken = await refresh(undefined);
      }
      return lastToken;
    },
    async renewedAccessToken() {
      lastToken = await refresh(lastToken);
      return lastToken;
    },
  };
}

/** What the user granted and until when their access token holds; undefined when disconnected. */
export async function spotifyGrant(
  db: Db,
  userId: string,
): Promise<{ scopes: string[]; accessTokenExpiresAt: Date } | undefined> {
  const account = await spotifyAccount(db, userId);
  if (!account || account.status !== 'active') return undefined;
  return {
    scopes: account.scopes.split(/\s+/).filter(Boolean),
    accessTokenExpiresAt: account.accessTokenExpiresAt,
  };
}

/** Catalogue work is not any user's: it runs on the token of an active account, if there is one. */
export async function anyActiveTokenSource(
  db: Db,
  cipher: TokenCipher,
  spotify: SpotifyClient,
): Promise<TokenSource | undefined> {
  const userId = await anyActiveAccountUserId(db);
  return userId === undefined ? undefined : tokenSourceFor(db, cipher, spotify, userId);
}
