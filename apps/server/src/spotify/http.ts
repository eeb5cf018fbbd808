import type { z } from 'zod';
import { SpotifyError } from './errors';
import { accountsError, webApiError } from './schemas';

export interface SpotifyHttpOptions {
  timeoutMs: number;
  /** Attempts for 5xx, network errors and short 429 waits. */
  maxAttempts: number;
  /** A 429 asking for a longer wait than this is reported to the caller instead of awaited. */
  maxRetryAfterSec: number;
  /** Base of the jittered exponential backoff between attempts. */
  backoffMs: number;
}

export const defaultHttpOptions: SpotifyHttpOptions = {
  timeoutMs: 10_000,
  maxAttempts: 3,
  maxRetryAfterSec: 5,
  backoffMs: 250,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function backoff(attempt: number, baseMs: number): number {
  return baseMs * 2 ** (attempt - 1) * (0.5 + Math.random());
}

function errorFromBody(status: number, text: string, retryAfterSec?: number): SpotifyError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new SpotifyError(`Spotify answered ${status}`, status, undefined, retryAfterSec);
  }
  const api = webApiError.safeParse(body);
  if (api.success) {
    const { message, reason } = api.data.error;
    return new SpotifyError(message || `Spotify answered ${status}`, status, reason, retryAfterSec);
  }
  const accounts = accountsError.safeParse(body);
  if (accounts.success) {
    const { error, error_description } = accounts.data;
    return new SpotifyError(error_description ?? error, status, error, retryAfterSec);
  }
  return new SpotifyError(`Spotify answered ${status}`, status, undefined, retryAfterSec);
}

/**
 * One HTTP exchange with Spotify: timeout on every attempt, bounded retries with jittered backoff
 * on 5xx and network errors, short 429 waits honoured (longer ones raised with `retryAfterSec`).
 * A 2xx body is parsed with `schema`; with no schema any 2xx is success (player commands may
 * answer with non-JSON bodies).
 */
export async function spotifyFetch<T>(
  url: string,
  init: RequestInit,
  schema: z.ZodType<T> | undefined,
  options: SpotifyHttpOptions = defaultHttpOptions,
): Promise<T | undefined> {
  let lastError: SpotifyError | undefined;
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (cause) {
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      lastError = new SpotifyError(
        timedOut ? 'Spotify did not answer in time' : 'Spotify could not be reached',
        0,
      );
      if (attempt < options.maxAttempts) await sleep(backoff(attempt, options.backoffMs));
      continue;
    }
    if (response.ok) {
      if (!schema) {
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
    const retryAfterHeader = Number(response.headers.get('retry-after'));
    const retryAfterSec = Number.isFinite(retryAfterHeader) ? retryAfterHeader : undefined;
    lastError = errorFromBody(response.status, await response.text(), retryAfterSec);
    const retryable =
      response.status >= 500 ||
      (response.status === 429 && (retryAfterSec ?? 1) <= options.maxRetryAfterSec);
    if (!retryable || attempt === options.maxAttempts) throw lastError;
    await sleep(
      response.status === 429 ? (retryAfterSec ?? 1) * 1000 : backoff(attempt, options.backoffMs),
    );
  }
  throw lastError ?? new SpotifyError('Spotify could not be reached', 0);
}
