import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './apiClient';
import { DEFAULT_QUERY_RETRY, FETCHED_JUST_NOW_MS } from './constants';

/**
 * A query retry policy: up to `maxRetries` retries, but none for answers 400-499 (a 401 or 404
 * says the same thing the second time).
 */
export function retryUnlessClientError(maxRetries: number) {
  return (failureCount: number, error: Error): boolean => {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
    return failureCount < maxRetries;
  };
}

/**
 * For a page's own query, which its route's loader asks for as each navigation starts: the page
 * mounting after a failed answer shows it instead of asking again (one 404, not two). "Try
 * again" and the next navigation ask again.
 */
export const ASKED_BY_THE_LOADER = { retryOnMount: false } as const;

/**
 * Whether an answer (data at `dataUpdatedAt`, a failure at `errorUpdatedAt`) came so recently,
 * from the route loader as the navigation started, that a page mounting now uses it instead of
 * asking again.
 */
export function answeredJustNow(updatedAt: number): boolean {
  return Date.now() - updatedAt < FETCHED_JUST_NOW_MS;
}

/** The app's query client with the defaults of docs/product.md §9. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: retryUnlessClientError(DEFAULT_QUERY_RETRY),
        refetchOnWindowFocus: false,
        // A page mounting right after its route's loader fetched its data uses that answer
        // instead of asking again; older data is refetched on mount as usual (when stale).
        refetchOnMount: (query) => !answeredJustNow(query.state.dataUpdatedAt),
      },
      // Offline, a change runs at once and is refused with a message (`apiClient.ts`) rather
      // than paused and sent whenever the network returns, unknown to the user.
      mutations: { networkMode: 'always' },
    },
  });
}
