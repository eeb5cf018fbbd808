import type { RouteObject } from 'react-router';
import { LoginPage } from '../features/account/components/LoginPage';
import { ErrorPage } from '../features/error-pages/components/ErrorPage';
import { NotFoundPage } from '../features/error-pages/components/NotFoundPage';
import type { ActivityFeed } from '../features/activity/api/activityFeed';
import { AppRoot } from './AppRoot';
import { ActivityRoute } from './routes/ActivityRoute';
import { DiscoverRoute } from './routes/DiscoverRoute';
import { FriendsRoute } from './routes/FriendsRoute';
import { HomeRoute } from './routes/HomeRoute';
import { ImportRoute } from './routes/ImportRoute';
import { ProfileRoute } from './routes/ProfileRoute';
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
 * The route table (docs/product.md §2). Pages that later issues build are added here when they
 * exist; until then their paths fall through to the 404 page.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <AppRoot />,
    children: [
      { index: true, element: <HomeRoute /> },
      ...activityRoutes('recent'),
      ...activityRoutes('likes'),
      { path: 'discover', element: <DiscoverRoute /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'error', element: <ErrorPage /> },
      { path: 'friends', element: <FriendsRoute /> },
      { path: 'settings', element: <SettingsRoute /> },
      { path: 'spotify/import', element: <ImportRoute /> },
      { path: 'user/:handle', element: <ProfileRoute /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
