import type { RouteObject } from 'react-router';
import { LoginPage } from '../features/account/components/LoginPage';
import { ErrorPage } from '../features/error-pages/components/ErrorPage';
import { NotFoundPage } from '../features/error-pages/components/NotFoundPage';
import type { ActivityFeed } from '../features/activity/api/activityFeed';
import { AppRoot } from './AppRoot';
import { ActivityRoute } from './routes/ActivityRoute';
import { FriendsRoute } from './routes/FriendsRoute';
import { HomeRoute } from './routes/HomeRoute';
import { ImportRoute } from './routes/ImportRoute';
import { ProfileRoute } from './routes/ProfileRoute';
import { SearchRoute } from './routes/SearchRoute';
import { SettingsRoute } from './routes/SettingsRoute';

/** `/{feed}`, `/{feed}/friends`, `/{feed}/me` and `/{feed}/user/{username}`. */
function activityRoutes(feed: ActivityFeed): RouteObject[] {
  return [
    { path: feed, element: <ActivityRoute feed={feed} scope="all" /> },
    { path: `${feed}/friends`, element: <ActivityRoute feed={feed} scope="friends" /> },
    { path: `${feed}/me`, element: <ActivityRoute feed={feed} scope="me" /> },
    { path: `${feed}/user/:username`, element: <ActivityRoute feed={feed} scope="user" /> },
  ];
}

/**
 * The pages of the route table (docs/product.md §2). Pages that later issues build
 * are added here when they exist; until then their paths fall through to the 404 page.
 */
const pageRoutes: RouteObject[] = [
  { index: true, element: <HomeRoute /> },
  ...activityRoutes('recent'),
  ...activityRoutes('likes'),
  { path: 'login', element: <LoginPage /> },
  { path: 'error', element: <ErrorPage /> },
  { path: 'friends', element: <FriendsRoute /> },
  { path: 'settings', element: <SettingsRoute /> },
  { path: 'spotify/import', element: <ImportRoute /> },
  { path: 'user/:handle', element: <ProfileRoute /> },
  { path: '*', element: <NotFoundPage /> },
];

/** The pages, and the search modal's path: over the page it was opened from (kept shown). */
export const appRoutes: RouteObject[] = [
  {
    element: <AppRoot pages={pageRoutes} />,
    children: [
      { path: 'search', element: <SearchRoute /> },
      { path: 'search/:query', element: <SearchRoute /> },
      ...pageRoutes,
    ],
  },
];
