import { streamingStats, type StreamingStats } from '@earshot/contract/spotify';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { SPOTIFY_STATS_STALE_MS } from '../../../lib/constants';

/** Whether the user's Spotify connection works. */
export function fetchSpotifyStats(signal?: AbortSignal): Promise<StreamingStats> {
  return requestJson('/api/spotify/stats', streamingStats, { signal });
}

export function spotifyStatsQueryOptions() {
  return queryOptions({
    queryKey: ['spotify', 'stats'],
    queryFn: ({ signal }) => fetchSpotifyStats(signal),
    staleTime: SPOTIFY_STATS_STALE_MS,
  });
}

export function useSpotifyStatsQuery() {
  return useQuery(spotifyStatsQueryOptions());
}
