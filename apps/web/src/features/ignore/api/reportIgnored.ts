import { ignoreState, type IgnoreState } from '@earshot/contract/ignore';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';
import { ignoredListQueryKey } from './ignoredList';
import { ignoreTargetPath, type IgnoreTarget } from './ignoreTarget';

/** `POST /api/ignore/{track|artist}/{key}/report`: asks the admins to ignore it for everyone. */
export function postReport(target: IgnoreTarget): Promise<IgnoreState> {
  return requestJson(`${ignoreTargetPath('/api/ignore', target)}/report`, ignoreState, {
    method: 'POST',
  });
}

/** Reports an ignored item; it then stays marked reported. */
export function useReportMutation(target: IgnoreTarget) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  return useMutation({
    mutationKey: ['report', target.kind, target.key],
    mutationFn: () => postReport(target),
    onSuccess: async () => {
      notifications.push(`Reported ${target.name} to the admins.`, { kind: 'success' });
      await queryClient.invalidateQueries({ queryKey: ignoredListQueryKey });
    },
    onError: (error) =>
      notifications.push(`Failed to report ${target.name}: ${error.message}`, { kind: 'error' }),
  });
}
