import type { TokenSource } from './client';
import type { TokenResponse } from './schemas';

/** A token is asked for again this long before it expires, so no call goes out with a dying one. */
const RENEW_AHEAD_MS = 60_000;

/**
 * Earshot's own access token (the client credentials grant): catalogue reads that no user's
 * connection should pay for. Kept in memory until shortly before it expires; callers that ask
 * while a token is being fetched share that one request.
 */
export class AppTokenSource implements TokenSource {
  #token: { value: string; expiresAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    private readonly fetchToken: () => Promise<TokenResponse>,
    private readonly now: () => number = Date.now,
  ) {}

  accessToken(): Promise<string> {
    const token = this.#token;
    if (token && token.expiresAt - this.now() > RENEW_AHEAD_MS) return Promise.resolve(token.value);
    return this.#fetch();
  }

  /** Spotify refused the current token (401): a new one, shared by everyone refused with it. */
  renewedAccessToken(): Promise<string> {
    this.#token = undefined;
    return this.#fetch();
  }

  #fetch(): Promise<string> {
    this.#pending ??= this.fetchToken()
      .then((answer) => {
        this.#token = {
          value: answer.access_token,
          expiresAt: this.now() + answer.expires_in * 1000,
        };
        return answer.access_token;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}
