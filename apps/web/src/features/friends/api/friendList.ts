import { friendList, type FriendList } from '@earshot/contract/friendship';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { friendshipQueryKeys } from './friendshipQueryKeys';

/** The viewer's friends and friend requests both ways, with likes and latest play. */
export function fetchFriendList(signal?: AbortSignal): Promise<FriendList> {
  return requestJson('/api/friendship/list', friendList, { signal });
}

export function friendListQueryOptions() {
  return queryOptions({
    queryKey: friendshipQueryKeys.list,
    queryFn: ({ signal }) => fetchFriendList(signal),
  });
}

export function useFriendListQuery() {
  return useQuery(friendListQueryOptions());
}
