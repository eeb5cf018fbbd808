import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './apiClient';
import { DEFAULT_QUERY_RETRY } from './constants';

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

/** The app's query client with the defaults of docs/product.md §9. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: retryUnlessClientError(DEFAULT_QUERY_RETRY),
        refetchOnWindowFocus: false,
      },
    },
  });
}
