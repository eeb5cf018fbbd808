/** Spotify answered with an error, or could not be reached. `status` 0 means no answer. */
export class SpotifyError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** Player reason (NO_ACTIVE_DEVICE, PREMIUM_REQUIRED, …) or accounts error code. */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'SpotifyError';
  }
}

/** The user's grant is gone (revoked, expired, rotated away): they must connect again. */
export class SpotifyGrantRevokedError extends SpotifyError {
  constructor(message: string) {
    super(message, 400, 'invalid_grant');
    this.name = 'SpotifyGrantRevokedError';
  }
}

/** Spotify asked for a wait longer than the caller can hold: retry at `retryAt` (ms epoch). */
export class SpotifyRateLimitedError extends SpotifyError {
  constructor(
    readonly retryAfterSec: number,
    readonly retryAt: number,
  ) {
    super(`Spotify is rate limiting Earshot; retry in ${retryAfterSec} s`, 429);
    this.name = 'SpotifyRateLimitedError';
  }
}

/**
 * Whether a failed change (a like, a follow) is told as "Spotify could not …" (502): Spotify
 * refused it, failed or did not answer. A long rate limit is not: the error handler says
 * Spotify is busy and for how long (503 with Retry-After).
 */
export function spotifyCouldNotChange(error: unknown): error is SpotifyError {
  return error instanceof SpotifyError && !(error instanceof SpotifyRateLimitedError);
}
