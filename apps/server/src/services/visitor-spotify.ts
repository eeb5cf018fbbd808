import type { Metrics } from '../observability/metrics';
import type { TokenSource } from '../spotify/client';
import { SpotifyRateLimitedError } from '../spotify/errors';
import type { SpotifyRateGate } from '../spotify/rate-gate';

/** The budget's window: Spotify counts an app's calls over a rolling 30 s. */
const BUDGET_WINDOW_MS = 30_000;

/**
 * Earshot's own Spotify token as visitors' catalogue pages spend it: at most `budgetPer30s`
 * calls per 30 s in this process (crawlers and visitors must not use up the app's rate limit,
 * which every user's sync shares), and none while Spotify asks the app to wait. A call past
 * either is refused at once with `SpotifyRateLimitedError`, so the page serves what is stored.
 */
export class VisitorSpotify implements TokenSource {
  /** When this process's recent visitor calls went out, oldest first. */
  readonly #calls: number[] = [];

  constructor(
    private readonly appToken: TokenSource,
    private readonly gate: SpotifyRateGate,
    private readonly budgetPer30s: number,
    private readonly metrics: Metrics,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called once per Web API call: the call is counted here, or refused. */
  accessToken(): Promise<string> {
    this.#spend();
    return this.appToken.accessToken();
  }

  /** The call is sent again with a new token: a second call. */
  renewedAccessToken(): Promise<string> {
    this.#spend();
    return this.appToken.renewedAccessToken();
  }

  #spend(): void {
    const now = this.now();
    while (this.#calls.length > 0 && this.#calls[0]! <= now - BUDGET_WINDOW_MS) this.#calls.shift();
    // Any endpoint: only the wait the whole app was asked for matters before a call starts.
    const { waitMs } = this.gate.delayFor('');
    if (waitMs > 0) {
      this.metrics.visitorFillCalls.inc({ outcome: 'rate_limited' });
      throw new SpotifyRateLimitedError(Math.ceil(waitMs / 1000), now + waitMs);
    }
    if (this.#calls.length >= this.budgetPer30s) {
      this.metrics.visitorFillCalls.inc({ outcome: 'over_budget' });
      const freeAt = (this.#calls[0] ?? now) + BUDGET_WINDOW_MS;
      throw new SpotifyRateLimitedError(Math.max(1, Math.ceil((freeAt - now) / 1000)), freeAt);
    }
    this.#calls.push(now);
    this.metrics.visitorFillCalls.inc({ outcome: 'made' });
  }
}
