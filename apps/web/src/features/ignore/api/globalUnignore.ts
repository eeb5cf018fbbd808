import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWithoutContent } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';
import { ignoreTargetPath, type IgnoreTarget } from './ignoreTarget';

/** `DELETE /api/admin/ignore/{track|artist}/{key}` (admins): ends a global ignore. */
export function deleteGlobalIgnore(target: IgnoreTarget): Promise<void> {
  return requestWithoutContent(ignoreTargetPath('/api/admin/ignore', target), {
    method: 'DELETE',
  });
}

/** "Global Unignore": counts the item again for everyone who did not ignore it themselves. */
export function useGlobalUnignoreMutation(target: IgnoreTarget) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  return useMutation({
    mutationKey: ['global-unignore', target.kind, target.key],
    mutationFn: () => deleteGlobalIgnore(target),
    onSuccess: () => queryClient.invalidateQueries(),
    onError: (error) =>
      notifications.push(`Failed to globally unignore ${target.name}: ${error.message}`, {
        kind: 'error',
      }),
  });
}
