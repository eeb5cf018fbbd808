import { streamingStats, type StreamingStats } from '@earshot/contract/spotify';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { SPOTIFY_STATS_REFETCH_MS, SPOTIFY_STATS_STALE_MS } from '../../../lib/constants';

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

/**
 * `watch`: asked again every minute, for the app-wide watch that notices a revoked connection
 * while the app stays open; pages read it as it is (stale after 5 minutes).
 */
export function useSpotifyStatsQuery({ watch = false }: { watch?: boolean } = {}) {
  return useQuery({
    ...spotifyStatsQueryOptions(),
    refetchInterval: watch ? SPOTIFY_STATS_REFETCH_MS : false,
  });
}
