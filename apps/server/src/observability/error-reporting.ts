/** How long shutdown waits for queued error reports to be sent. */
export const ERROR_REPORTS_FLUSH_MS = 2_000;

/**
 * Where an error happened: the route's pattern (e.g. `/api/track/:id`) and the method, or for
 * background work the job's queue (e.g. `sync-recent`) and `JOB`.
 */
export interface ErrorOrigin {
  method: string;
  route: string;
}

/** Sends unexpected errors to the error-reporting service (Sentry). */
export interface ErrorReporter {
  report(error: unknown, origin: ErrorOrigin): void;
  /** Sends what is still queued (at shutdown); false when `timeoutMs` ran out first. */
  close(timeoutMs: number): Promise<boolean>;
}

/**
 * Starts Sentry for `dsn`, tagging every event with `release` (Earshot's version). Loaded only
 * when a DSN is configured, so a server without one neither loads nor sends anything.
 *
 * Sentry's default integrations and data collection stay off: they would attach request URLs
 * (OAuth codes), headers, cookies and breadcrumbs of every outgoing call. Events carry the error,
 * the route and the release.
 */
export async function startErrorReporting(dsn: string, release: string): Promise<ErrorReporter> {
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn,
    release,
    defaultIntegrations: false,
    integrations: [Sentry.linkedErrorsIntegration()],
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
    },
    enableRuntimeChannelInjection: false,
  });
  return {
    report(error, { method, route }) {
      Sentry.withScope((scope) => {
        scope.setTransactionName(`${method} ${route}`);
        scope.setTags({ route, method });
        Sentry.captureException(error);
      });
    },
    close: (timeoutMs) => Sentry.close(timeoutMs),
  };
}
