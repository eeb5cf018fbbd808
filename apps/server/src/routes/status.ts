import { errorBody } from '@earshot/contract/errors';
import { backendStatus } from '@earshot/contract/status';
import type { RoutePlugin } from './context';

export const statusRoutes: RoutePlugin = async (app, { config }) => {
  app.get(
    '/api/status',
    {
      schema: {
        tags: ['status'],
        summary: 'Backend version, for the footer',
        response: { 200: backendStatus, 429: errorBody },
      },
    },
    // The browser reports its errors to the same place, under the same release.
    async () => ({
      version: config.version,
      ...(config.sentryDsn && { sentry_dsn: config.sentryDsn }),
    }),
  );
};
