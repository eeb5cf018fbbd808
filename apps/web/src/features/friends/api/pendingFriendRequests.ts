import { pendingRequests, type PendingRequests } from '@earshot/contract/friendship';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import {
  PENDING_FRIEND_REQUESTS_REFETCH_MS,
  PENDING_FRIEND_REQUESTS_STALE_MS,
} from '../../../lib/constants';
import { friendshipQueryKeys } from './friendshipQueryKeys';

/** Friend requests waiting for the viewer's answer. */
export function fetchPendingFriendRequests(signal?: AbortSignal): Promise<PendingRequests> {
  return requestJson('/api/friendship/pending', pendingRequests, { signal });
}

export function pendingFriendRequestsQueryOptions() {
  return queryOptions({
    queryKey: friendshipQueryKeys.pending,
    queryFn: ({ signal }) => fetchPendingFriendRequests(signal),
    staleTime: PENDING_FRIEND_REQUESTS_STALE_MS,
    refetchInterval: PENDING_FRIEND_REQUESTS_REFETCH_MS,
  });
}

/** Only for logged-in users (docs/product.md §6): mount it where a session exists. */
export function usePendingFriendRequestsQuery() {
  return useQuery(pendingFriendRequestsQueryOptions());
}
