import type { BackendStatus } from '@earshot/contract/status';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { usePagePainted } from '../../../lib/AfterFirstPaint';
import { requestJson, type ResponseSchema } from '../../../lib/apiClient';
import { BACKEND_STATUS_REFETCH_MS, BACKEND_STATUS_STALE_MS } from '../../../lib/constants';

/**
 * The contract's `BackendStatus` ({ version: string, sentry_dsn?: string }, other keys dropped),
 * read by hand: the footer asks on every page, and a zod schema here would load zod on the
 * visitors' landing page for two strings (decision 0023). test/backendStatus.test.ts holds it to
 * the schema.
 */
export const backendStatusAnswer: ResponseSchema<BackendStatus> = {
  parse(data) {
    if (typeof data !== 'object' || data === null) throw new TypeError('Not a BackendStatus');
    const { version, sentry_dsn: sentryDsn } = data as Record<string, unknown>;
    if (typeof version !== 'string') throw new TypeError('Not a BackendStatus');
    if (sentryDsn === undefined) return { version };
    if (typeof sentryDsn !== 'string') throw new TypeError('Not a BackendStatus');
    return { version, sentry_dsn: sentryDsn };
  },
};

export function fetchBackendStatus(signal?: AbortSignal): Promise<BackendStatus> {
  return requestJson('/api/status', backendStatusAnswer, { signal });
}

export function backendStatusQueryOptions() {
  return queryOptions({
    queryKey: ['status'],
    queryFn: ({ signal }) => fetchBackendStatus(signal),
    staleTime: BACKEND_STATUS_STALE_MS,
    refetchInterval: BACKEND_STATUS_REFETCH_MS,
  });
}

/** Asked once the page has painted (decision 0048): the footer's line is no part of a first paint. */
export function useBackendStatusQuery() {
  return useQuery({ ...backendStatusQueryOptions(), enabled: usePagePainted() });
}
