import type { FastifyInstance } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sends from another site. Browsers send
 * `Sec-Fetch-Site` and `Origin` on such requests; server-to-server calls send neither.
 */
export function refuseCrossSiteWrites(app: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const fetchSite = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    const sameOrigin =
      origin === undefined ||
      origin === publicOrigin ||
      origin === `${request.protocol}://${request.host}`;
    if (fetchSite === 'cross-site' || !sameOrigin) {
      return reply.code(403).send({ detail: 'Cross-site request refused' });
    }
  });
}
