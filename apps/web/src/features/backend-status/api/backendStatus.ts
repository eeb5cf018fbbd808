import { backendStatus, type BackendStatus } from '@earshot/contract/status';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { BACKEND_STATUS_REFETCH_MS, BACKEND_STATUS_STALE_MS } from '../../../lib/constants';

export function fetchBackendStatus(signal?: AbortSignal): Promise<BackendStatus> {
  return requestJson('/api/status', backendStatus, { signal });
}

export function backendStatusQueryOptions() {
  return queryOptions({
    queryKey: ['status'],
    queryFn: ({ signal }) => fetchBackendStatus(signal),
    staleTime: BACKEND_STATUS_STALE_MS,
    refetchInterval: BACKEND_STATUS_REFETCH_MS,
  });
}

export function useBackendStatusQuery() {
  return useQuery(backendStatusQueryOptions());
}
