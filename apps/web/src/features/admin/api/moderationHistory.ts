import { moderationHistory, type ModerationHistory } from '@earshot/contract/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { adminQueryKeys } from './adminQueryKeys';

/** `GET /api/admin/history`: the admins' latest decisions. */
export function fetchModerationHistory(signal?: AbortSignal): Promise<ModerationHistory> {
  return requestJson('/api/admin/history', moderationHistory, { signal });
}

export function moderationHistoryQueryOptions() {
  return queryOptions({
    queryKey: adminQueryKeys.history,
    queryFn: ({ signal }) => fetchModerationHistory(signal),
  });
}

export function useModerationHistoryQuery() {
  return useQuery(moderationHistoryQueryOptions());
}
