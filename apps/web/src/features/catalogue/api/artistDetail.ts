import { artistDetail, type ArtistDetail } from '@earshot/contract/catalogue';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { ARTIST_TRACK_PLAYLIST_STALE_MS } from '../../../lib/constants';
import { catalogueQueryKeys, publicPageRequest } from './catalogueQueryKeys';
import { ASKED_BY_THE_LOADER } from '../../../lib/queryClient';

/** `GET /api/artist/{id}`; a 404 means "Artist not found". */
export function fetchArtistDetail(id: string, signal?: AbortSignal): Promise<ArtistDetail> {
  return requestJson(`/api/artist/${encodeURIComponent(id)}`, artistDetail, {
    ...publicPageRequest,
    signal,
  });
}

export function artistDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogueQueryKeys.artist(id),
    queryFn: ({ signal }) => fetchArtistDetail(id, signal),
    staleTime: ARTIST_TRACK_PLAYLIST_STALE_MS,
  });
}

export function useArtistDetailQuery(id: string) {
  return useQuery({ ...artistDetailQueryOptions(id), ...ASKED_BY_THE_LOADER });
}
