import type { RouteObject } from 'react-router';
import { LoginPage } from '../features/account/components/LoginPage';
import { ErrorPage } from '../features/error-pages/components/ErrorPage';
import { NotFoundPage } from '../features/error-pages/components/NotFoundPage';
import type { ActivityFeed } from '../features/activity/api/activityFeed';
import { AppRoot } from './AppRoot';
import { ActivityRoute } from './routes/ActivityRoute';
import { BetaRoute } from './routes/BetaRoute';
import { ArtistRoute } from './routes/ArtistRoute';
import { DiscoverRoute } from './routes/DiscoverRoute';
import { FriendsRoute } from './routes/FriendsRoute';
import { HomeRoute } from './routes/HomeRoute';
import { IgnoredRoute } from './routes/IgnoredRoute';
import { ImportRoute } from './routes/ImportRoute';
import { PlaylistRoute, PlaylistsRoute } from './routes/PlaylistRoute';
import { ProfileRoute } from './routes/ProfileRoute';
import { SearchRoute } from './routes/SearchRoute';
import { SettingsRoute } from './routes/SettingsRoute';
import { AlbumRoute, TrackRoute } from './routes/TrackRoute';

/** `/{feed}`, `/{feed}/friends`, `/{feed}/me` and `/{feed}/user/{username}`. */
function activityRoutes(feed: ActivityFeed): RouteObject[] {
  return [
    { path: feed, element: <ActivityRoute feed={feed} scope="all" /> },
    { path: `${feed}/friends`, element: <ActivityRoute feed={feed} scope="friends" /> },
    { path: `${feed}/me`, element: <ActivityRoute feed={feed} scope="me" /> },
    { path: `${feed}/user/:username`, element: <ActivityRoute feed={feed} scope="user" /> },
  ];
}

/** The pages of the route table (docs/product.md §2); any other path is the 404 page. */
const pageRoutes: RouteObject[] = [
  { index: true, element: <HomeRoute /> },
  ...activityRoutes('recent'),
  ...activityRoutes('likes'),
  { path: 'discover', element: <DiscoverRoute /> },
  { path: 'login', element: <LoginPage /> },
  { path: 'error', element: <ErrorPage /> },
  { path: 'friends', element: <FriendsRoute /> },
  { path: 'settings', element: <SettingsRoute /> },
  { path: 'ignored', element: <IgnoredRoute /> },
  { path: 'spotify/import', element: <ImportRoute /> },
  { path: 'spotify/beta', element: <BetaRoute /> },
  { path: 'user/:handle', element: <ProfileRoute /> },
  { path: 'artist/:artistId', element: <ArtistRoute tab="tracks" /> },
  { path: 'artist/:artistId/likes', element: <ArtistRoute tab="likes" /> },
  { path: 'artist/:artistId/albums', element: <ArtistRoute tab="albums" /> },
  { path: 'track/:trackId', element: <TrackRoute /> },
  { path: 'album/:albumId', element: <AlbumRoute /> },
  { path: 'playlist/:playlistId', element: <PlaylistRoute /> },
  { path: 'playlists', element: <PlaylistsRoute /> },
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
