import { matchRoutes } from 'react-router';
import { pageRoutes, searchRoutes, type PageHandle } from './pages';

/**
 * Starts downloading the chunk of the page at `to` (decision 0023). A failed download is left
 * for the navigation itself to report, through the route's error boundary.
 */
export function prefetchPage(to: string): void {
  for (const match of matchRoutes([...searchRoutes, ...pageRoutes], to) ?? []) {
    (match.route.handle as PageHandle | undefined)?.preload().catch(() => undefined);
  }
}

/** Props for a link: fetch its page's chunk when the user shows intent to follow it. */
export function prefetchOnIntent(to: string) {
  const prefetch = () => prefetchPage(to);
  return { onMouseEnter: prefetch, onFocus: prefetch, onTouchStart: prefetch };
}
