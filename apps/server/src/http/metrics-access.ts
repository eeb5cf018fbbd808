import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../errors';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may scrape `/metrics`: anyone on this machine; from elsewhere only with
 * `Authorization: Bearer <METRICS_TOKEN>`, and nobody when no token is configured.
 */
export function requireMetricsAccess(metricsToken: string | undefined) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const allowed =
      LOOPBACK.has(request.socket.remoteAddress ?? '') ||
      (metricsToken !== undefined && sameSecret(token, metricsToken));
    if (!allowed) throw new HttpError(403, 'Metrics are available from this machine only');
  };
}
