import { Workbox } from 'workbox-window';
import { reloadPage } from '../lib/browserLocation';
import { SERVICE_WORKER_UPDATE_INTERVAL_MS } from '../lib/constants';

const SERVICE_WORKER_URL = '/sw.js';

/** Service-worker failures; the browser console is the app's error report for now. */
export function reportServiceWorkerError(error: unknown): void {
  console.error('Service worker error', error);
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
