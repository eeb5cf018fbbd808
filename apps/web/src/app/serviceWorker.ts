import { Workbox } from 'workbox-window';
import { reloadPage } from '../lib/browserLocation';
import { reportError } from '../lib/errorReporting';
import { SERVICE_WORKER_UPDATE_INTERVAL_MS } from '../lib/constants';

const SERVICE_WORKER_URL = '/sw.js';

/** Service-worker failures: on the console, and to Sentry when error reporting is configured. */
export function reportServiceWorkerError(error: unknown): void {
  console.error('Service worker error', error);
  reportError(error, { source: 'service-worker' });
}

/**
 * Registers the service worker built by vite-plugin-pwa (docs/product.md §2). A preflight fetch of
 * `/sw.js` comes first, so a server that has no worker (answering with HTML or an error) leaves
 * the app without one. The worker skips waiting and claims clients, so an update takes control
 * at once; the page then reloads to run the new code. Updates are looked for every 5 minutes
 * and whenever the tab becomes visible.
 */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;

  const preflight = await fetch(SERVICE_WORKER_URL, { cache: 'no-store' });
  if (!preflight.ok || !preflight.headers.get('content-type')?.includes('javascript')) return;

  const workbox = new Workbox(SERVICE_WORKER_URL, { scope: '/' });
  workbox.addEventListener('controlling', (event) => {
    if (event.isUpdate) reloadPage();
  });
  await workbox.register();

  const checkForUpdate = () => {
    workbox.update().catch(reportServiceWorkerError);
  };
  setInterval(checkForUpdate, SERVICE_WORKER_UPDATE_INTERVAL_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') checkForUpdate();
  });
}
