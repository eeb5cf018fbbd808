import {
  suggestionList,
  type SuggestionList,
  type SuggestionSection,
} from '@earshot/contract/suggestions';
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError, requestJson } from '../../../lib/apiClient';
import { DISCOVER_RETRY_COUNT, DISCOVER_SECTION_LIMIT } from '../../../lib/constants';
import type { OnRepeatDays } from '../discoverSections';

/**
 * `GET /api/suggestions/{section}`: the four Discover sections share one answer shape, so they
 * share this fetcher and these query options; `days` is Like Your On-Repeat's only.
 */
export const suggestionQueryKeys = {
  all: ['suggestions'] as const,
  section: (section: SuggestionSection) => ['suggestions', section] as const,
  list: (section: SuggestionSection, days: OnRepeatDays) =>
    ['suggestions', section, { days }] as const,
};

export function fetchSuggestions(
  section: SuggestionSection,
  days: OnRepeatDays,
  signal?: AbortSignal,
): Promise<SuggestionList> {
  const params = new URLSearchParams({ limit: String(DISCOVER_SECTION_LIMIT) });
  if (section === 'like-on-repeat' && days !== null) params.set('days', String(days));
  return requestJson(`/api/suggestions/${section}?${params.toString()}`, suggestionList, {
    signal,
  });
}

/** Errors that say 500 (in their text or status) are not worth retrying. */
function mentions500(error: Error): boolean {
  const status = error instanceof ApiError ? String(error.status) : '';
  return `${status} ${error.message}`.includes('500');
}

/** A failed load is tried again up to 3 times, except on errors containing 500. */
export function retrySuggestions(failureCount: number, error: Error): boolean {
  return failureCount < DISCOVER_RETRY_COUNT && !mentions500(error);
}

export function suggestionsQueryOptions(
  section: SuggestionSection,
  days: OnRepeatDays,
  enabled: boolean,
) {
  return queryOptions({
    queryKey: suggestionQueryKeys.list(section, days),
    queryFn: ({ signal }) => fetchSuggestions(section, days, signal),
    retry: retrySuggestions,
    enabled,
    // A selection stays until the viewer asks for another (refresh): no refetch on remount.
    staleTime: Infinity,
    // Switching the time filter keeps the shown list until the new one arrives.
    placeholderData: keepPreviousData,
  });
}

export function useSuggestionsQuery(
  section: SuggestionSection,
  days: OnRepeatDays,
  enabled: boolean,
) {
  return useQuery(suggestionsQueryOptions(section, days, enabled));
}

/** Sets the viewer's like of a song (uid) on every suggestion of it. */
export function setLikedInSuggestions(queryClient: QueryClient, uid: string, liked: boolean) {
  queryClient.setQueriesData<SuggestionList>({ queryKey: suggestionQueryKeys.all }, (data) =>
    data
      ? {
          items: data.items.map((item) =>
            item.track.uid === uid && item.liked !== liked ? { ...item, liked } : item,
          ),
        }
      : data,
  );
}

/**
 * After a like: Like Your On-Repeat holds only songs not liked, so it is read again (the liked
 * song leaves it, another takes its place); the other sections keep their selection.
 */
export function refreshAfterLike(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: suggestionQueryKeys.section('like-on-repeat') });
}
