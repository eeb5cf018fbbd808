import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { AppRoot } from './AppRoot';
import { pageRoutes, searchRoutes, type PageHandle } from './pages';

/**
 * A page route whose loader starts the page's data (`PageHandle.data`) and returns at once: the
 * navigation never waits for it. A failed prefetch is not lost: the page's own query asks again
 * and shows the error.
 */
function withPageData(route: RouteObject, queryClient: QueryClient): RouteObject {
  const data = (route.handle as PageHandle | undefined)?.data;
  if (!data) return route;
  return {
    ...route,
    loader: ({ params, request }) => {
      data(queryClient, params, new URL(request.url)).catch(() => undefined);
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
