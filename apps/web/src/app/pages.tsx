import type { CurrentUser } from '@earshot/contract/user';
import type { QueryClient } from '@tanstack/react-query';
import type { Params, RouteObject } from 'react-router';
import { currentUserQueryOptions } from '../features/account/api/currentUser';
import type { ActivityScopeKind } from '../features/activity/activityScope';
import type { ActivityFeed } from '../features/activity/api/activityFeed';
import { lazyPage, type LazyPage } from './lazyPage';
import type * as PageDataExports from './pageData';
import { ActivityPage } from './activityPages';
import { HomeRoute } from './routes/HomeRoute';

/**
 * Starts a page's first data as the navigation to it starts (run by its route's loader, see
 * `router.tsx`), so the requests do not wait for the page's code and then the session.
 */
export type PageData = (queryClient: QueryClient, params: Params, url: URL) => Promise<unknown>;

/** What a page route carries besides its element: how to fetch its chunk and its data early. */
export interface PageHandle {
  preload: () => Promise<unknown>;
  data?: PageData;
  /** The chunk is fetched on intent only, not with every navigation (visitors never need it). */
  chunkForUsersOnly?: boolean;
}

type PageDataModule = typeof PageDataExports;
const pageData = (): Promise<PageDataModule> => import('./pageData');

/** The signed-in user, from the one request the shell also waits for; null for a visitor. */
function signedInViewer(queryClient: QueryClient): Promise<CurrentUser | null> {
  return queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => null);
}

/**
 * Data of a page for signed-in users only, asked for once the session says who they are.
 * `lateCode`: the data's code loads only for a user (the landing page stays light for visitors).
 */
function signedInData(
  prefetch: (
    module: PageDataModule,
    viewer: CurrentUser,
    ...args: Parameters<PageData>
  ) => Promise<unknown>,
  { lateCode = false } = {},
): PageData {
  return async (queryClient, params, url) => {
    const code = lateCode ? undefined : pageData();
    const viewer = await signedInViewer(queryClient);
    if (!viewer) return;
    await prefetch(await (code ?? pageData()), viewer, queryClient, params, url);
  };
}

/** Data of a public page: asked for at once, whoever looks. */
function publicData(
  prefetch: (module: PageDataModule, ...args: Parameters<PageData>) => Promise<unknown>,
): PageData {
  return async (...args) => prefetch(await pageData(), ...args);
}

const activityData = (feed: ActivityFeed, scope: ActivityScopeKind, lateCode = false) =>
  signedInData(
    (module, viewer, queryClient, params, url) =>
      module.prefetchActivity(queryClient, viewer, feed, scope, params, url),
    { lateCode },
  );

const LoginPage = lazyPage(() =>
  import('../features/account/components/LoginPage').then((module) => module.LoginPage),
);
const ErrorPage = lazyPage(() =>
  import('../features/error-pages/components/ErrorPage').then((module) => module.ErrorPage),
);
const NotFoundPage = lazyPage(() =>
  import('../features/error-pages/components/NotFoundPage').then((module) => module.NotFoundPage),
);
const DiscoverPage = lazyPage(() =>
  import('./routes/DiscoverRoute').then((module) => module.DiscoverRoute),
);
const FriendsPage = lazyPage(() =>
  import('./routes/FriendsRoute').then((module) => module.FriendsRoute),
);
const SettingsPage = lazyPage(() =>
  import('./routes/SettingsRoute').then((module) => module.SettingsRoute),
);
const IgnoredPage = lazyPage(() =>
  import('./routes/IgnoredRoute').then((module) => module.IgnoredRoute),
);
const ImportPage = lazyPage(() =>
  import('./routes/ImportRoute').then((module) => module.ImportRoute),
);
const BetaPage = lazyPage(() => import('./routes/BetaRoute').then((module) => module.BetaRoute));
const ProfilePage = lazyPage(() =>
  import('./routes/ProfileRoute').then((module) => module.ProfileRoute),
);
const ArtistPage = lazyPage(() =>
  import('./routes/ArtistRoute').then((module) => module.ArtistRoute),
);
const TrackPage = lazyPage(() => import('./routes/TrackRoute').then((module) => module.TrackRoute));
const AlbumPage = lazyPage(() => import('./routes/TrackRoute').then((module) => module.AlbumRoute));
const PlaylistPage = lazyPage(() =>
  import('./routes/PlaylistRoute').then((module) => module.PlaylistRoute),
);
const SearchPage = lazyPage(() =>
  import('./routes/SearchRoute').then((module) => module.SearchRoute),
);
const PlaylistsPage = lazyPage(() =>
  import('./routes/PlaylistRoute').then((module) => module.PlaylistsRoute),
);

/** A route whose page loads on demand; its handle lets a link fetch the chunk on intent. */
function page<Props extends object>(
  path: string,
  Page: LazyPage<Props>,
  props: NoInfer<Props>,
  data?: PageData,
): RouteObject {
  return {
    path,
    element: <Page {...props} />,
    handle: { preload: Page.preload, data } satisfies PageHandle,
  };
}

/** `/{feed}`, `/{feed}/friends`, `/{feed}/me` and `/{feed}/user/{username}`. */
function activityRoutes(feed: ActivityFeed): RouteObject[] {
  return [
    page(feed, ActivityPage, { feed, scope: 'all' }, activityData(feed, 'all')),
    page(
      `${feed}/friends`,
      ActivityPage,
      { feed, scope: 'friends' },
      activityData(feed, 'friends'),
    ),
    page(`${feed}/me`, ActivityPage, { feed, scope: 'me' }, activityData(feed, 'me')),
    page(
      `${feed}/user/:username`,
      ActivityPage,
      { feed, scope: 'user' },
      activityData(feed, 'user'),
    ),
  ];
}

const artistData = publicData((module, queryClient, params) =>
  module.prefetchArtist(queryClient, params),
);

/**
 * The pages of the route table (docs/product.md §2); any other path is the 404 page. Only `/`
 * is in the entry chunk: it is the visitors' landing page (logged-in users' Recent Activity
 * there loads on demand, like every other page).
 */
export const pageRoutes: RouteObject[] = [
  {
    index: true,
    element: <HomeRoute />,
    // Visitors see the landing page here; users their Recent Activity.
    handle: {
      preload: ActivityPage.preload,
      data: activityData('recent', 'all', true),
      chunkForUsersOnly: true,
    } satisfies PageHandle,
  },
  ...activityRoutes('recent'),
  ...activityRoutes('likes'),
  page('discover', DiscoverPage, {}),
  page('login', LoginPage, {}),
  page('error', ErrorPage, {}),
  page(
    'friends',
    FriendsPage,
    {},
    signedInData((module, _viewer, queryClient) => module.prefetchFriends(queryClient)),
  ),
  page('settings', SettingsPage, {}),
  page(
    'ignored',
    IgnoredPage,
    {},
    signedInData((module, _viewer, queryClient) => module.prefetchIgnored(queryClient)),
  ),
  page('spotify/import', ImportPage, {}),
  page('spotify/beta', BetaPage, {}),
  page(
    'user/:handle',
    ProfilePage,
    {},
    publicData((module, queryClient, params) => module.prefetchProfile(queryClient, params)),
  ),
  page('artist/:artistId', ArtistPage, { tab: 'tracks' }, artistData),
  page('artist/:artistId/likes', ArtistPage, { tab: 'likes' }, artistData),
  page('artist/:artistId/albums', ArtistPage, { tab: 'albums' }, artistData),
  page(
    'track/:trackId',
    TrackPage,
    {},
    publicData((module, queryClient, params) => module.prefetchTrack(queryClient, params)),
  ),
  page(
    'album/:albumId',
    AlbumPage,
    {},
    publicData((module, queryClient, params) => module.prefetchAlbum(queryClient, params)),
  ),
  page(
    'playlist/:playlistId',
    PlaylistPage,
    {},
    publicData((module, queryClient, params) => module.prefetchPlaylist(queryClient, params)),
  ),
  page(
    'playlists',
    PlaylistsPage,
    {},
    signedInData((module, _viewer, queryClient) => module.prefetchPlaylists(queryClient)),
  ),
  page('*', NotFoundPage, {}),
];

/** The search modal's paths: over the page it was opened from (kept shown). */
export const searchRoutes: RouteObject[] = [
  page('search', SearchPage, {}),
  page('search/:query', SearchPage, {}),
];
