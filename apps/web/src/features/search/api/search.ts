import { searchResults, type SearchResults } from '@earshot/contract/search';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { SEARCH_RESULTS_LIMIT, SEARCH_RESULTS_STALE_MS } from '../../../lib/constants';

export const searchQueryKeys = {
  all: ['search'] as const,
  text: (text: string) => ['search', text] as const,
};

/** `GET /api/search`: tracks, albums, artists and people matching `text`, best first. */
export function fetchSearch(text: string, signal?: AbortSignal): Promise<SearchResults> {
  const params = new URLSearchParams({ q: text, limit: String(SEARCH_RESULTS_LIMIT) });
  return requestJson(`/api/search?${params.toString()}`, searchResults, { signal });
}

export function searchQueryOptions(text: string) {
  return queryOptions({
    queryKey: searchQueryKeys.text(text),
    queryFn: ({ signal }) => fetchSearch(text, signal),
    staleTime: SEARCH_RESULTS_STALE_MS,
  });
}

/** Searches `text` once it is not blank; the previous results stay shown while typing on. */
export function useSearchQuery(text: string) {
  return useQuery({
    ...searchQueryOptions(text),
    enabled: text !== '',
    placeholderData: keepPreviousData,
    // The next keystroke searches again: a failure is shown at once rather than retried.
    retry: false,
  });
}
