import { describe, expect, it, vi } from 'vitest';
import { reportServiceWorkerError } from '../src/app/serviceWorker';
import { configureErrorReporting, reportError } from '../src/lib/errorReporting';

const sentry = vi.hoisted(() => ({
  loaded: vi.fn(),
  init: vi.fn(),
  captureException: vi.fn(),
}));
vi.mock('@sentry/browser', () => {
  sentry.loaded();
  return { init: sentry.init, setUser: vi.fn(), captureException: sentry.captureException };
});

describe('error reporting without a DSN', () => {
  it('loads no Sentry code, initialises nothing and sends nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    reportError(new Error('before the status'), { source: 'render' });
    await configureErrorReporting({ version: '1.4.0' });
    reportError(new Error('after the status'), { source: 'render' });
    reportServiceWorkerError(new Error('update failed'));
    // Lets every waiting report settle.
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(sentry.loaded).not.toHaveBeenCalled();
    expect(sentry.init).not.toHaveBeenCalled();
    expect(sentry.captureException).not.toHaveBeenCalled();
  });

  it('stays off when a later status names a DSN: only the first answer counts', async () => {
    await configureErrorReporting({ version: '1.4.0' });
    await configureErrorReporting({
      version: '1.4.0',
      sentry_dsn: 'https://k@o1.ingest.sentry.io/1',
    });
    expect(sentry.loaded).not.toHaveBeenCalled();
  });
});
