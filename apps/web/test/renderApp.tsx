import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../src/app/providers';
import { createAppRoutes } from '../src/app/router';
import { createQueryClient } from '../src/lib/queryClient';

/** Renders the app (or other routes under the same providers) at `path`. */
export function renderApp(path: string, routes?: RouteObject[]) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes ?? createAppRoutes(queryClient), {
    initialEntries: [path],
  });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}
