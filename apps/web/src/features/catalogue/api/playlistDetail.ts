import { playlistDetail, type PlaylistDetail } from '@earshot/contract/catalogue';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { ARTIST_TRACK_PLAYLIST_STALE_MS } from '../../../lib/constants';
import { catalogueQueryKeys, publicPageRequest } from './catalogueQueryKeys';
import { ASKED_BY_THE_LOADER } from '../../../lib/queryClient';

/** `GET /api/playlist/{id}`; 404 "Playlist not found", 403 "This playlist is private". */
export function fetchPlaylistDetail(id: string, signal?: AbortSignal): Promise<PlaylistDetail> {
  return requestJson(`/api/playlist/${encodeURIComponent(id)}`, playlistDetail, {
    ...publicPageRequest,
    signal,
  });
}

export function playlistDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogueQueryKeys.playlist(id),
    queryFn: ({ signal }) => fetchPlaylistDetail(id, signal),
    staleTime: ARTIST_TRACK_PLAYLIST_STALE_MS,
  });
}

export function usePlaylistDetailQuery(id: string) {
  return useQuery({ ...playlistDetailQueryOptions(id), ...ASKED_BY_THE_LOADER });
}
