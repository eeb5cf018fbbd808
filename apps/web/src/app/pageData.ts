import type { QueryClient } from '@tanstack/react-query';
import type { Params } from 'react-router';
import type { CurrentUser } from '@earshot/contract/user';
import {
  activityFilters,
  routeScope,
  type ActivityScopeKind,
} from '../features/activity/activityScope';
import { activityFeedQueryOptions, type ActivityFeed } from '../features/activity/api/activityFeed';
import { albumDetailQueryOptions } from '../features/catalogue/api/albumDetail';
import { artistDetailQueryOptions } from '../features/catalogue/api/artistDetail';
import { playlistDetailQueryOptions } from '../features/catalogue/api/playlistDetail';
import { playlistsQueryOptions } from '../features/catalogue/api/playlists';
import { trackDetailQueryOptions } from '../features/catalogue/api/trackDetail';
import { friendListQueryOptions } from '../features/friends/api/friendList';
import { ignoredListQueryOptions } from '../features/ignore/api/ignoredList';
import { publicProfileQueryOptions } from '../features/profile/api/publicProfile';

// The first data of each page, asked for by its route's loader as the navigation starts, beside
// the page's code (decision 0023): the page then finds it in the query cache. Keys and options
// are the pages' own, so nothing is fetched twice.

/** Recent or Likes of the signed-in `viewer`, with the ignored list their rows are marked by. */
export function prefetchActivity(
  queryClient: QueryClient,
  viewer: CurrentUser,
  feed: ActivityFeed,
  scope: ActivityScopeKind,
  params: Params,
  url: URL,
) {
  const q = url.searchParams.get('q') ?? '';
  const filters = activityFilters(routeScope(scope, params.username ?? ''), viewer.id, q);
  return Promise.all([
    queryClient.prefetchInfiniteQuery(activityFeedQueryOptions(feed, filters)),
    queryClient.prefetchQuery(ignoredListQueryOptions()),
  ]);
}

export const prefetchFriends = (queryClient: QueryClient) =>
  queryClient.prefetchQuery(friendListQueryOptions());

export const prefetchIgnored = (queryClient: QueryClient) =>
  queryClient.prefetchQuery(ignoredListQueryOptions());

export const prefetchPlaylists = (queryClient: QueryClient) =>
  queryClient.prefetchQuery(playlistsQueryOptions());

export const prefetchProfile = (queryClient: QueryClient, { handle = '' }: Params) =>
  queryClient.prefetchQuery(publicProfileQueryOptions(handle));

export const prefetchTrack = (queryClient: QueryClient, { trackId = '' }: Params) =>
  queryClient.prefetchQuery(trackDetailQueryOptions(trackId));

export const prefetchAlbum = (queryClient: QueryClient, { albumId = '' }: Params) =>
  queryClient.prefetchQuery(albumDetailQueryOptions(albumId));

export const prefetchArtist = (queryClient: QueryClient, { artistId = '' }: Params) =>
  queryClient.prefetchQuery(artistDetailQueryOptions(artistId));

export const prefetchPlaylist = (queryClient: QueryClient, { playlistId = '' }: Params) =>
  queryClient.prefetchQuery(playlistDetailQueryOptions(playlistId));
