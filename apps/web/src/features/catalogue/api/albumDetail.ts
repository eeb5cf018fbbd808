import { albumDetail, type AlbumDetail } from '@earshot/contract/catalogue';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { ALBUM_STALE_MS } from '../../../lib/constants';
import { catalogueQueryKeys, publicPageRequest } from './catalogueQueryKeys';
import { ASKED_BY_THE_LOADER } from '../../../lib/queryClient';

/** `GET /api/album/{id}`; a 404 means "Album not found". */
export function fetchAlbumDetail(id: string, signal?: AbortSignal): Promise<AlbumDetail> {
  return requestJson(`/api/album/${encodeURIComponent(id)}`, albumDetail, {
    ...publicPageRequest,
    signal,
  });
}

export function albumDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogueQueryKeys.album(id),
    queryFn: ({ signal }) => fetchAlbumDetail(id, signal),
    staleTime: ALBUM_STALE_MS,
  });
}

export function useAlbumDetailQuery(id: string) {
  return useQuery({ ...albumDetailQueryOptions(id), ...ASKED_BY_THE_LOADER });
}
