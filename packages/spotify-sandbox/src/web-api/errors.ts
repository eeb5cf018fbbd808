import type { FastifyReply } from 'fastify';

/** The Web API's error body: `{"error":{"status":N,"message":"..."}}`. */
export function sendApiError(reply: FastifyReply, status: number, message: string) {
  if (status === 401) reply.header('www-authenticate', 'Bearer realm="spotify"');
  return reply.code(status).send({ error: { status, message } });
}

/**
 * A Web API error a route throws; the Web API's error handler answers it in Spotify's shape. The
 * messages are Spotify's own wording where it is known.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);

/** Spotify's answer to a token without a scope the endpoint (or the asked item) needs. */
export const insufficientScope = () => new ApiError(403, 'Insufficient client scope');

/**
 * What an app in Development Mode gets from an endpoint the February 2026 change closed to it:
 * `403 Forbidden` (what apps migrated in March 2026 reported for the batch look-ups, top tracks and
 * `/playlists/{id}/tracks`), not 404: the route exists, the app may not use it.
 */
export const closedInDevelopmentMode = () => new ApiError(403, 'Forbidden');

/** Spotify's wording for a well-formed id of nothing in the catalogue. */
export const resourceNotFound = () => new ApiError(404, 'Resource not found');
