import {
  friendshipStatusResponse,
  type FriendshipStatusResponse,
} from '@earshot/contract/friendship';
import { requestJson } from '../../../lib/apiClient';
import { useFriendshipMutation } from './friendshipMutation';

/** Accepts `user`'s friend request. */
export function postAcceptFriendRequest(user: string): Promise<FriendshipStatusResponse> {
  return requestJson(
    `/api/friendship/accept/${encodeURIComponent(user)}`,
    friendshipStatusResponse,
    { method: 'POST' },
  );
}

export function useAcceptFriendRequestMutation() {
  return useFriendshipMutation(postAcceptFriendRequest);
}
