import { artistAlbums, type ArtistAlbums } from '@earshot/contract/catalogue';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { ALBUM_STALE_MS } from '../../../lib/constants';
import { catalogueQueryKeys, publicPageRequest } from './catalogueQueryKeys';

/** `GET /api/artist/{id}/albums`: the Albums tab. */
export function fetchArtistAlbums(id: string, signal?: AbortSignal): Promise<ArtistAlbums> {
  return requestJson(`/api/artist/${encodeURIComponent(id)}/albums`, artistAlbums, {
    ...publicPageRequest,
    signal,
  });
}

export function artistAlbumsQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogueQueryKeys.artistAlbums(id),
    queryFn: ({ signal }) => fetchArtistAlbums(id, signal),
    staleTime: ALBUM_STALE_MS,
  });
}

export function useArtistAlbumsQuery(id: string) {
  return useQuery(artistAlbumsQueryOptions(id));
}
