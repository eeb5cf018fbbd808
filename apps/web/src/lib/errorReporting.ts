import type { BackendStatus } from '@earshot/contract/status';
// A type only: the code itself is imported on demand, below.
import type * as SentryBrowser from './sentryBrowser';
import { isPromoted, visitorId } from './visitor';

type Sentry = typeof SentryBrowser;

/** Where an error came from, as tagged on its report. */
export type ErrorSource = 'render' | 'service-worker';

export interface ErrorDetails {
  source: ErrorSource;
  /** React's component stack of a rendering error. */
  componentStack?: string;
}

let settle: (sentry: Sentry | null) => void = () => undefined;
/** Sentry once the server said where reports go; null when it has nowhere (no DSN). */
const reporter = new Promise<Sentry | null>((resolve) => {
  settle = resolve;
});
let configured = false;

/**
 * Starts error reporting as the server's status says (docs/product.md §8): with a DSN, Sentry is
 * loaded (a chunk of its own, never in a visitor's first download) and set up with Earshot's
 * version as the release; without one, nothing is loaded and nothing is ever sent. Only the first
 * call counts. The anonymous visitor id tells a browser's reports apart without naming anyone.
 */
export async function configureErrorReporting(status: BackendStatus): Promise<void> {
  if (configured) return;
  configured = true;
  const dsn = status.sentry_dsn;
  if (!dsn) {
    settle(null);
    return;
  }
  try {
    const sentry = await import('./sentryBrowser');
    sentry.init({
      dsn,
      release: status.version,
      // Errors only: no session tracking (a count of visits would be analytics).
      integrations: (defaults) =>
        defaults.filter((integration) => integration.name !== 'BrowserSession'),
      // Every report names the page it happened on; uncaught errors are caught by Sentry itself.
      beforeSend(event) {
        event.tags = {
          route: window.location.pathname,
          promoted: String(isPromoted()),
          ...event.tags,
        };
        return event;
      },
    });
    sentry.setUser({ id: visitorId() });
    settle(sentry);
  } catch (error) {
    // Sentry's chunk did not load (offline): the console is the only report left.
    console.error('Error reporting unavailable', error);
    settle(null);
  }
}

/**
 * Reports an error to Sentry when reporting is configured. Errors raised before the server's
 * status arrives wait for it, then go or are dropped.
 */
export function reportError(error: unknown, { source, componentStack }: ErrorDetails): void {
  const route = window.location.pathname;
  void reporter.then((sentry) =>
    sentry?.captureException(error, {
      tags: { source, route },
      ...(componentStack !== undefined && { contexts: { react: { componentStack } } }),
    }),
  );
}
