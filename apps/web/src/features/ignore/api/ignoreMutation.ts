import type { IgnoredList, IgnoreState } from '@earshot/contract/ignore';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotificationStack } from '../../../lib/notifications';
import { ignoredListQueryKey } from './ignoredList';

interface IgnoreMutationOptions {
  mutationKey: readonly string[];
  post: () => Promise<IgnoreState>;
  /** The ignored list once `state`, the call's answer, is in it. */
  listWith: (list: IgnoredList, state: IgnoreState) => IgnoredList;
  /** How the failure notification names what was to be ignored. */
  failureName: string;
  /** Runs with the list's refresh, for pages whose stats leave ignored items out. */
  onIgnored?: () => Promise<unknown>;
}

/**
 * A call that ignores a track or an artist. The ignored list takes the answer at once and is then
 * fetched again; a failure shows as an error notification. The callbacks live on the mutation,
 * so they still run when the menu that started it has closed.
 */
export function useIgnoreMutation({
  mutationKey,
  post,
  listWith,
  failureName,
  onIgnored,
}: IgnoreMutationOptions) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  return useMutation({
    mutationKey,
    mutationFn: post,
    onSuccess: async (state) => {
      queryClient.setQueryData<IgnoredList>(ignoredListQueryKey, (list) =>
        list ? listWith(list, state) : list,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ignoredListQueryKey }),
        onIgnored?.(),
      ]);
    },
    onError: (error) =>
      notifications.push(`Failed to ignore ${failureName}: ${error.message}`, { kind: 'error' }),
  });
}
