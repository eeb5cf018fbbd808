import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { AppRoot } from './AppRoot';
import { pageRoutes, searchRoutes, type PageHandle } from './pages';

/**
 * A page route whose loader starts the page's chunk and its data (`PageHandle.data`) and returns
 * at once: the navigation never waits for them, and neither waits for the first render (on a
 * first visit the chunk would otherwise be asked for only once the shell has rendered). A failed
 * prefetch is not lost: the page itself loads again and shows the error.
 */
export function withPageData(route: RouteObject, queryClient: QueryClient): RouteObject {
  const handle = route.handle as PageHandle | undefined;
  if (!handle) return route;
  return {
    ...route,
    loader: ({ params, request }) => {
      if (!handle.chunkForUsersOnly) handle.preload().catch(() => undefined);
      handle.data?.(queryClient, params, new URL(request.url)).catch(() => undefined);
      return null;
    },
  };
}

/** The pages and the search modal's paths, their data fetched through `queryClient`. */
export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      element: <AppRoot pages={pageRoutes} />,
      // The loaders return at once: there is nothing to show while they "run".
      HydrateFallback: () => null,
      children: [...searchRoutes, ...pageRoutes].map((route) => withPageData(route, queryClient)),
    },
  ];
}
