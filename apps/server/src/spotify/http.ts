import type { z } from 'zod';
import { SpotifyError, SpotifyRateLimitedError } from './errors';
import type { SpotifyRateGate } from './rate-gate';
import { accountsError, webApiError } from './schemas';

export interface SpotifyHttpOptions {
  timeoutMs: number;
  /** Attempts for 5xx and network errors, of requests that are safe to send again. */
  maxAttempts: number;
  /** 429 answers retried after their Retry-After before giving up. */
  max429Retries: number;
  /** A caller waits at most this long at a closed gate; longer waits are raised instead. */
  maxGateWaitMs: number;
  /** Base of the jittered exponential backoff between attempts. */
  backoffMs: number;
}

/** How one process talks to Spotify: the shared rate gate, limits, and a metrics hook. */
export interface SpotifyHttp {
  gate: SpotifyRateGate;
  options: SpotifyHttpOptions;
  /** Called once per HTTP exchange: `status` 0 for a network error or timeout. */
  observe?(endpoint: string, status: number, seconds: number): void;
  /** Called with each wait imposed by a 429. */
  observeRateLimitWait?(seconds: number): void;
}

export const defaultHttpOptions: SpotifyHttpOptions = {
  timeoutMs: 10_000,
  maxAttempts: 3,
  max429Retries: 5,
  maxGateWaitMs: 60_000,
  backoffMs: 250,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function backoff(attempt: number, baseMs: number): number {
  return baseMs * 2 ** (attempt - 1) * (0.5 + Math.random());
}

function errorFromBody(status: number, text: string): SpotifyError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new SpotifyError(`Spotify answered ${status}`, status);
  }
  const api = webApiError.safeParse(body);
  if (api.success) {
    const { message, reason } = api.data.error;
    return new SpotifyError(message || `Spotify answered ${status}`, status, reason);
  }
  const accounts = accountsError.safeParse(body);
  if (accounts.success) {
    const { error, error_description } = accounts.data;
    return new SpotifyError(error_description ?? error, status, error);
  }
  return new SpotifyError(`Spotify answered ${status}`, status);
}

/**
 * Methods whose request, sent twice, has the effect of sending it once (RFC 9110 §9.2.2), as
 * Spotify's Web API uses them: `PUT /me/player/play` sets what plays, `PUT /me/player` where.
 * A POST is not: `POST /me/player/next` resent after a lost answer skips twice.
 */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

function retryAfterSeconds(response: Response): number {
  const value = Number(response.headers.get('retry-after'));
  return Number.isFinite(value) && value >= 0 ? value : 1;
}

/**
 * One exchange with Spotify: the process's rate gate first, a timeout on every attempt, bounded
 * retries with jittered backoff on 5xx and network errors, 429s waited out through the gate (or
 * raised as `SpotifyRateLimitedError` when the wait is too long to hold). A 2xx body is parsed
 * with `schema`; without one any 2xx is success (player commands may answer non-JSON bodies).
 * `endpoint` names the call for the gate and metrics, e.g. "GET /me/player/recently-played".
 *
 * A 5xx or a lost answer does not say whether Spotify carried the request out, so only a request
 * that is `repeatable` (by default: one of an idempotent method) is sent again after one. A 429
 * says it did not: any request is sent again once the wait has passed.
 */
export async function spotifyFetch<T>(
  http: SpotifyHttp,
  endpoint: string,
  url: string,
  init: RequestInit,
  schema: z.ZodType<T> | undefined,
  repeatable = IDEMPOTENT_METHODS.has(init.method ?? 'GET'),
): Promise<T | undefined> {
  const { options, gate } = http;
  let failures = 0;
  let rateLimited = 0;
  for (;;) {
    const { waitMs, parkedUntil } = gate.delayFor(endpoint);
    if (parkedUntil !== undefined || waitMs > options.maxGateWaitMs) {
      const until = parkedUntil ?? Date.now() + waitMs;
      throw new SpotifyRateLimitedError(Math.ceil((until - Date.now()) / 1000), until);
    }
    if (waitMs > 0) await sleep(waitMs);

    const started = performance.now();
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (cause) {
      http.observe?.(endpoint, 0, (performance.now() - started) / 1000);
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      const error = new SpotifyError(
        timedOut ? 'Spotify did not answer in time' : 'Spotify could not be reached',
        0,
      );
      if (!repeatable || ++failures >= options.maxAttempts) throw error;
      await sleep(backoff(failures, options.backoffMs));
      continue;
    }
    http.observe?.(endpoint, response.status, (performance.now() - started) / 1000);

    if (response.ok) {
      // 204 (e.g. GET /me/player with nothing playing) has no body to parse.
      if (!schema || response.status === 204) {
        await response.body?.cancel();
        return undefined;
      }
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new SpotifyError('Spotify answered with a malformed body', 502);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        throw new SpotifyError('Spotify answered with an unexpected shape', 502);
      }
      return parsed.data;
    }

    if (response.status === 429) {
      await response.body?.cancel();
      const retryAfter = retryAfterSeconds(response);
      http.observeRateLimitWait?.(retryAfter);
      const parked = gate.noteRetryAfter(endpoint, retryAfter);
      if (parked || ++rateLimited > options.max429Retries) {
        throw new SpotifyRateLimitedError(retryAfter, Date.now() + retryAfter * 1000);
      }
      continue;
    }

    const error = errorFromBody(response.status, await response.text());
    if (response.status < 500 || !repeatable || ++failures >= options.maxAttempts) throw error;
    await sleep(backoff(failures, options.backoffMs));
  }
}
