import {
  friendshipStatusResponse,
  type FriendshipStatusResponse,
} from '@earshot/contract/friendship';
import { requestJson } from '../../../lib/apiClient';
import { useFriendshipMutation } from './friendshipMutation';

/** Sends a friend request to `user`; if they already asked, it makes you friends. */
export function postFriendRequest(user: string): Promise<FriendshipStatusResponse> {
  return requestJson(
    `/api/friendship/request/${encodeURIComponent(user)}`,
    friendshipStatusResponse,
    { method: 'POST' },
  );
}

export function useSendFriendRequestMutation() {
  return useFriendshipMutation(postFriendRequest);
}
