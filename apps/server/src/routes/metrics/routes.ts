import { timingSafeEqual } from 'node:crypto';
import { HttpError } from '../../errors';
import type { RoutePlugin } from '../context';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Prometheus metrics of this process. Open to scrapers on this machine; from elsewhere only with
 * `Authorization: Bearer <METRICS_TOKEN>`, and not at all when no token is configured.
 */
export const metricsRoutes: RoutePlugin = async (app, { config, metrics }) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const allowed =
      LOOPBACK.has(request.socket.remoteAddress ?? '') ||
      (config.metricsToken !== undefined && sameSecret(token, config.metricsToken));
    if (!allowed) throw new HttpError(403, 'Metrics are available from this machine only');
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
};
