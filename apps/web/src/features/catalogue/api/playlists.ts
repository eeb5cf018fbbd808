import { playlistList, type PlaylistList } from '@earshot/contract/catalogue';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { ARTIST_TRACK_PLAYLIST_STALE_MS } from '../../../lib/constants';
import { catalogueQueryKeys } from './catalogueQueryKeys';

/** `GET /api/spotify/playlists`: the viewer's playlists. */
export function fetchPlaylists(signal?: AbortSignal): Promise<PlaylistList> {
  return requestJson('/api/spotify/playlists', playlistList, { signal });
}

export function playlistsQueryOptions() {
  return queryOptions({
    queryKey: catalogueQueryKeys.playlists,
    queryFn: ({ signal }) => fetchPlaylists(signal),
    staleTime: ARTIST_TRACK_PLAYLIST_STALE_MS,
  });
}

export function usePlaylistsQuery() {
  return useQuery(playlistsQueryOptions());
}
