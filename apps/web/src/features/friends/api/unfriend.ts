import {
  friendshipStatusResponse,
  type FriendshipStatusResponse,
} from '@earshot/contract/friendship';
import { requestJson } from '../../../lib/apiClient';
import { useFriendshipMutation } from './friendshipMutation';

/** Ends the friendship with the user of id `id`. */
export function deleteFriendship(id: string): Promise<FriendshipStatusResponse> {
  return requestJson(
    `/api/friendship/unfriend/${encodeURIComponent(id)}`,
    friendshipStatusResponse,
    { method: 'DELETE' },
  );
}

export function useUnfriendMutation() {
  return useFriendshipMutation(deleteFriendship);
}
