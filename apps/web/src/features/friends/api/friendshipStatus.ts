import {
  friendshipStatusResponse,
  type FriendshipStatus,
  type FriendshipStatusResponse,
} from '@earshot/contract/friendship';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { FRIENDSHIP_STATUS_STALE_MS } from '../../../lib/constants';
import { friendshipQueryKeys } from './friendshipQueryKeys';

/** The viewer's friendship with `user` (a username or an id). */
export function fetchFriendshipStatus(
  user: string,
  signal?: AbortSignal,
): Promise<FriendshipStatusResponse> {
  return requestJson(
    `/api/friendship/status/${encodeURIComponent(user)}`,
    friendshipStatusResponse,
    { signal },
  );
}

export function friendshipStatusQueryOptions(user: string) {
  return queryOptions({
    queryKey: friendshipQueryKeys.status(user),
    queryFn: ({ signal }) => fetchFriendshipStatus(user, signal),
    staleTime: FRIENDSHIP_STATUS_STALE_MS,
  });
}

/**
 * The status, starting from one already known (e.g. from the profile answer, fetched at
 * `knownAt`) so the page does not ask twice.
 */
export function useFriendshipStatusQuery(
  user: string,
  known: { status: FriendshipStatus; knownAt: number },
) {
  return useQuery({
    ...friendshipStatusQueryOptions(user),
    initialData: { status: known.status },
    initialDataUpdatedAt: known.knownAt,
  });
}
