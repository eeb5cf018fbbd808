import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { AppRoot } from './AppRoot';
import { FIRST_PAINT_WAIT_MS } from '../lib/constants';
import { pageRoutes, searchRoutes, type PageHandle } from './pages';

/** Whether the next navigation is the document's own, the one its first paint waits for. */
export interface FirstNavigation {
  pending: boolean;
}

/**
 * A page route whose loader starts the page's chunk and its data (`PageHandle.data`). Later
 * navigations never wait for them: the page shows its own loading state. The document's own
 * navigation waits for both, up to FIRST_PAINT_WAIT_MS (decision 0047): they were asked for with
 * the document (decisions 0042, 0045), so the wait is short, and the first paint then shows the
 * page with its data rather than a spinner followed by the data's render, a long task on a phone.
 * A failed prefetch is not lost: the page itself loads again and shows the error.
 */
export function withPageData(
  route: RouteObject,
  queryClient: QueryClient,
  firstNavigation: FirstNavigation,
): RouteObject {
  const handle = route.handle as PageHandle | undefined;
  if (!handle) return route;
  return {
    ...route,
    loader: async ({ params, request }) => {
      const chunk = handle.chunkForUsersOnly ? undefined : handle.preload();
      const data = handle.data?.(queryClient, params, new URL(request.url));
      const waits = firstNavigation.pending;
      firstNavigation.pending = false;
      // Settled either way: a failure is the page's to show (it asks again).
      const settled = Promise.allSettled([chunk, data]);
      if (waits) await Promise.race([settled, delay(FIRST_PAINT_WAIT_MS)]);
      return null;
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The pages and the search modal's paths, their data fetched through `queryClient`. */
export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  const firstNavigation = { pending: true };
  return [
    {
      element: <AppRoot pages={pageRoutes} />,
      // Nothing while the first navigation's loader waits, should the router be rendered before
      // it ends (main.tsx renders it only after; without this, React Router warns).
      HydrateFallback: () => null,
      children: [...searchRoutes, ...pageRoutes].map((route) =>
        withPageData(route, queryClient, firstNavigation),
      ),
    },
  ];
}
