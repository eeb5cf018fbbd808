import type { FastifyInstance } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing API requests that a browser sends from another site. Browsers send
 * `Sec-Fetch-Site` and `Origin` on such requests; server-to-server calls send neither.
 * Only Earshot's own `/api/` is guarded: a mounted sandbox is another site with its own rules.
 */
export function refuseCrossSiteWrites(app: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
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
