import type { PlaybackState } from '@earshot/contract/playback';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, requestJson } from '../../../lib/apiClient';
import {
  PLAYBACK_REFETCH_IDLE_MS,
  PLAYBACK_REFETCH_PLAYING_MS,
  PLAYBACK_STALE_MS,
} from '../../../lib/constants';

const NOTHING_PLAYS: PlaybackState = { state: null };

/** `GET /api/spotify/playback`. A 401 gives the empty state (docs/product.md, Who may do what). */
export async function fetchPlayback(signal?: AbortSignal): Promise<PlaybackState> {
  try {
    // Loaded with the first answer: the player's provider is on every page, visitors' too.
    const schema = () =>
      import('@earshot/contract/playback').then((module) => module.playbackState);
    return await requestJson('/api/spotify/playback', schema, {
      signal,
      redirectOnAuthFailure: false,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return NOTHING_PLAYS;
    throw error;
  }
}

export const PLAYBACK_QUERY_KEY = ['spotify', 'playback'] as const;

export function playbackQueryOptions() {
  return queryOptions({
    queryKey: PLAYBACK_QUERY_KEY,
    queryFn: ({ signal }) => fetchPlayback(signal),
    staleTime: PLAYBACK_STALE_MS,
    refetchInterval: (query) =>
      query.state.data?.state?.is_playing ? PLAYBACK_REFETCH_PLAYING_MS : PLAYBACK_REFETCH_IDLE_MS,
  });
}

export function usePlaybackQuery() {
  return useQuery(playbackQueryOptions());
}
