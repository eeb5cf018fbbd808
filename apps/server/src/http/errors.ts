import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/client';
import { HttpError } from '../errors';
import type { ErrorReporter } from '../observability/error-reporting';
import { SpotifyDisconnectedError } from '../services/spotify-tokens';
import { SpotifyError, SpotifyRateLimitedError } from '../spotify/errors';

/** What a 503 for an unreachable database asks clients to wait: a restart takes seconds. */
const DATABASE_RETRY_AFTER_SEC = 5;

/** How a failure on Spotify's side is told to the user: never swallowed, never a bare 500. */
function spotifyFailure(error: Error): { status: number; detail: string } | undefined {
  if (error instanceof SpotifyDisconnectedError) {
    return { status: 409, detail: 'Your Spotify connection has expired. Please connect again.' };
  }
  if (error instanceof SpotifyRateLimitedError) {
    return {
      status: 503,
      detail: `Spotify is busy. Please try again in ${error.retryAfterSec} seconds.`,
    };
  }
  if (error instanceof SpotifyError) {
    return { status: 502, detail: `Spotify could not answer: ${error.message}` };
  }
  return undefined;
}

/**
 * Every error leaves as `{"detail": string}`; a 5xx never carries internals. Unexpected errors
 * (the bare 5xx) also go to `reporter`, with the route they happened on.
 */
export function installErrorHandling(app: FastifyInstance, reporter: ErrorReporter | null): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const spotify = spotifyFailure(error);
    if (spotify) {
      request.log.warn({ err: error }, 'Spotify failure');
      if (error instanceof SpotifyRateLimitedError) {
        reply.header('retry-after', String(error.retryAfterSec));
      }
      return reply.code(spotify.status).send({ detail: spotify.detail });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'request';
      const problems = error.validation.map((issue) => {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return field ? `${field}: ${issue.message}` : issue.message;
      });
      return reply.code(400).send({ detail: `Invalid ${where}: ${problems.join('; ')}` });
    }
    // Its message was written to be shown, whatever the status (a 502 that names Spotify's reason).
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ detail: error.message });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SEC))
        .send({ detail: 'The database is unavailable. Please try again in a moment.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      reporter?.report(error, {
        method: request.method,
        route: request.routeOptions.url ?? request.url.split('?')[0] ?? '/',
      });
      return reply.code(status).send({ detail: 'Internal server error' });
    }
    return reply.code(status).send({ detail: error.message });
  });
}
