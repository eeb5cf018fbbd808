import {
  friendshipStatusResponse,
  type FriendshipStatusResponse,
} from '@earshot/contract/friendship';
import { requestJson } from '../../../lib/apiClient';
import { useFriendshipMutation } from './friendshipMutation';

/** Declines `user`'s friend request, or cancels the viewer's own request to them. */
export function postDeclineFriendRequest(user: string): Promise<FriendshipStatusResponse> {
  return requestJson(
    `/api/friendship/decline/${encodeURIComponent(user)}`,
    friendshipStatusResponse,
    { method: 'POST' },
  );
}

export function useDeclineFriendRequestMutation() {
  return useFriendshipMutation(postDeclineFriendRequest);
}
