import { artistTracks, type ArtistTracks } from '@earshot/contract/catalogue';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { ARTIST_TRACK_PLAYLIST_STALE_MS } from '../../../lib/constants';
import { catalogueQueryKeys, publicPageRequest } from './catalogueQueryKeys';

/** `GET /api/artist/{id}/tracks`: the Tracks tab, and the Likes tab's source. */
export function fetchArtistTracks(id: string, signal?: AbortSignal): Promise<ArtistTracks> {
  return requestJson(`/api/artist/${encodeURIComponent(id)}/tracks`, artistTracks, {
    ...publicPageRequest,
    signal,
  });
}

export function artistTracksQueryOptions(id: string) {
  return queryOptions({
    queryKey: catalogueQueryKeys.artistTracks(id),
    queryFn: ({ signal }) => fetchArtistTracks(id, signal),
    staleTime: ARTIST_TRACK_PLAYLIST_STALE_MS,
  });
}

export function useArtistTracksQuery(id: string) {
  return useQuery(artistTracksQueryOptions(id));
}
