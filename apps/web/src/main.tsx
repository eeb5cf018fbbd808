import { onlineManager } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { config as configureZod } from 'zod/mini';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRoutes } from './app/router';
import { registerServiceWorker, reportServiceWorkerError } from './app/serviceWorker';
import { removeSpotifyConnectedFlag } from './app/spotifyConnectedFlag';
import { backendStatusQueryOptions } from './features/backend-status/api/backendStatus';
import { afterFirstPaint } from './lib/AfterFirstPaint';
import { configureErrorReporting } from './lib/errorReporting';
import { followBrowserOnlineState } from './lib/online';
import { createQueryClient } from './lib/queryClient';
import { reportSavedQueriesError, restoreSavedQueries } from './lib/savedQueries';
import { visitorId } from './lib/visitor';
import './styles/global.css';

// zod would probe `new Function` to compile its parsers, which the CSP (no unsafe-eval) refuses.
// (zod/mini: the same setting as classic zod's, without loading classic zod into the entry.)
configureZod({ jitless: true });
removeSpotifyConnectedFlag();
// The server fills each page's head for crawlers and link previews; from here PageMeta does.
for (const tag of document.head.querySelectorAll('[data-server-meta]')) tag.remove();

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

followBrowserOnlineState();
// The anonymous visitor id is made on the first visit (docs/product.md §3).
visitorId();
const queryClient = createQueryClient();
// The footer's status answer also says where errors are reported (one request for both). Asked
// once the page has painted (decision 0048); errors reported before then wait for it.
void afterFirstPaint().then(() =>
  queryClient
    .fetchQuery(backendStatusQueryOptions())
    .then(configureErrorReporting)
    .catch(() => {
      // Unreachable server (offline): errors stay on the console until the next page load.
    }),
);

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Resolves once the router's first navigation (its loader's wait, decision 0047) is over. */
function initialized(router: AppRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * React renders once the first navigation is over (its loader waits for the page's code and
 * data, decision 0047): its first render is then the page itself, not the router's empty
 * fallback followed by the page, a second render and commit in the phone's busiest second
 * (measured: Total Blocking Time of the landing page ~105 → ~30 ms, LCP ~2.17 → ~1.99 s).
 * It runs as a transition: React then yields to the browser every few milliseconds instead of
 * building the whole first page in one long task.
 */
function render(root: HTMLElement) {
  const router = createBrowserRouter(createAppRoutes(queryClient));
  void initialized(router).then(() => {
    const reactRoot = createRoot(root);
    startTransition(() => {
      reactRoot.render(
        <StrictMode>
          <AppProviders queryClient={queryClient}>
            <RouterProvider router={router} />
          </AppProviders>
        </StrictMode>,
      );
    });
  });
}

// Opened offline: the pages last seen (and who is signed in) come from the saved copies, before
// the first route's loader asks for them. Online, only fresh answers are shown.
if (onlineManager.isOnline()) {
  render(container);
} else {
  void restoreSavedQueries(queryClient)
    .catch(reportSavedQueriesError)
    .then(() => render(container));
}

// Registered once the page has painted: its preflight and the worker's precache are no part of it.
if (import.meta.env.PROD) {
  void afterFirstPaint().then(() => registerServiceWorker().catch(reportServiceWorkerError));
}
