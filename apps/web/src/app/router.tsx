import type { RouteObject } from 'react-router';
import { LoginPage } from '../features/account/components/LoginPage';
import { ErrorPage } from '../features/error-pages/components/ErrorPage';
import { NotFoundPage } from '../features/error-pages/components/NotFoundPage';
import { AppRoot } from './AppRoot';
import { HomeRoute } from './routes/HomeRoute';

/**
 * The route table (spec section 2). Pages that later issues build are added here when they
 * exist; until then their paths fall through to the 404 page.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <AppRoot />,
    children: [
      { index: true, element: <HomeRoute /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'error', element: <ErrorPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
