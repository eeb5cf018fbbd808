import { trackDetail, type TrackDetail } from '@earshot/contract/catalogue';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { ARTIST_TRACK_PLAYLIST_STALE_MS } from '../../../lib/constants';
import { catalogueQueryKeys, publicPageRequest } from './catalogueQueryKeys';
import { ASKED_BY_THE_LOADER } from '../../../lib/queryClient';

/** `GET /api/track/{id}`; a 404 means "Track not found". */
export function fetchTrackDetail(id: string, signal?: AbortSignal): Promise<TrackDetail> {
  return requestJson(`/api/track/${encodeURIComponent(id)}`, trackDetail, {
    ...publicPageRequest,
    signal,
  });
}

export function trackDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogueQueryKeys.track(id),
    queryFn: ({ signal }) => fetchTrackDetail(id, signal),
    staleTime: ARTIST_TRACK_PLAYLIST_STALE_MS,
  });
}

export function useTrackDetailQuery(id: string) {
  return useQuery({ ...trackDetailQueryOptions(id), ...ASKED_BY_THE_LOADER });
}
