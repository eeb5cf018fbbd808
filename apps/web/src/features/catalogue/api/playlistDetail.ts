import { playlistDetailSchema, type PlaylistDetail } from '@earshot/contract/catalogue';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, requestJson } from '../../../lib/apiClient';
import { ARTIST_TRACK_PLAYLIST_STALE_MS, DEFAULT_QUERY_RETRY } from '../../../lib/constants';
import { catalogueQueryKeys, publicPageRequest } from './catalogueQueryKeys';

/** `GET /api/playlist/{id}`; 404 "Playlist not found", 403 "This playlist is private". */
export function fetchPlaylistDetail(id: string, signal?: AbortSignal): Promise<PlaylistDetail> {
  return requestJson(`/api/playlist/${encodeURIComponent(id)}`, playlistDetailSchema, {
    ...publicPageRequest,
    signal,
  });
}

export function playlistDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogueQueryKeys.playlist(id),
    queryFn: ({ signal }) => fetchPlaylistDetail(id, signal),
    staleTime: ARTIST_TRACK_PLAYLIST_STALE_MS,
    // Asking again will not make a private playlist public.
    retry: (failures, error) =>
      !(error instanceof ApiError && error.status === 403) && failures < DEFAULT_QUERY_RETRY,
  });
}

export function usePlaylistDetailQuery(id: string) {
  return useQuery(playlistDetailQueryOptions(id));
}
