/**
 * Spotify's rate limit is per app, over a rolling 30 s window, so one 429 concerns every call
 * the process makes. A short Retry-After closes the gate for everyone until it passes; a long
 * one (Spotify has answered hours) closes it only for the endpoint that got it, so that work is
 * parked and rescheduled while other users' polls go on.
 */
export class SpotifyRateGate {
  private appWideUntil = 0;
  private readonly endpointUntil = new Map<string, number>();

  constructor(
    /** Waits up to this long are shared by the whole process; longer ones park the endpoint. */
    readonly appWideLimitSec = 60,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds to wait before calling `endpoint`, and whether it is parked. */
  delayFor(endpoint: string): { waitMs: number; parkedUntil?: number } {
    const now = this.now();
    const parked = this.endpointUntil.get(endpoint);
    if (parked !== undefined) {
      if (parked > now) return { waitMs: 0, parkedUntil: parked };
      this.endpointUntil.delete(endpoint);
    }
    return { waitMs: Math.max(0, this.appWideUntil - now) };
  }

  /** Records a 429; returns true when the endpoint is now parked (the wait is too long to hold). */
  noteRetryAfter(endpoint: string, retryAfterSec: number): boolean {
    const until = this.now() + retryAfterSec * 1000;
    if (retryAfterSec > this.appWideLimitSec) {
      this.endpointUntil.set(endpoint, Math.max(until, this.endpointUntil.get(endpoint) ?? 0));
      return true;
    }
    this.appWideUntil = Math.max(this.appWideUntil, until);
    return false;
  }
}
