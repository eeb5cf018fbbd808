import type { FriendshipStatusResponse } from '@earshot/contract/friendship';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { friendshipQueryKeys } from './friendshipQueryKeys';

/**
 * A friendship change for `user` (a username or an id). The answer is the new status as the
 * viewer sees it: it becomes the status query's data at once, and the friendship queries are
 * refreshed afterwards (list, pending requests, statuses).
 */
export function useFriendshipMutation(change: (user: string) => Promise<FriendshipStatusResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (answer, user) => {
      queryClient.setQueryData(friendshipQueryKeys.status(user), answer);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: friendshipQueryKeys.all }),
  });
}
