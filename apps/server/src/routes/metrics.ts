import { requireMetricsAccess } from '../http/metrics-access';
import type { RoutePlugin } from './context';

/** Prometheus metrics of this process, for scrapers `requireMetricsAccess` lets in. */
export const metricsRoutes: RoutePlugin = async (app, { config, metrics }) => {
  app.get(
    '/metrics',
    { schema: { hide: true }, preHandler: requireMetricsAccess(config.metricsToken) },
    async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
};
