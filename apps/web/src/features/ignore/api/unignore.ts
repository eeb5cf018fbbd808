import { ignoreState, type IgnoreState } from '@earshot/contract/ignore';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';
import { ignoreTargetPath, type IgnoreTarget } from './ignoreTarget';

/** `DELETE /api/ignore/track/{uid}` or `/api/ignore/artist/{id}`: counts it again for the viewer. */
export function deleteIgnore(target: IgnoreTarget): Promise<IgnoreState> {
  return requestJson(ignoreTargetPath('/api/ignore', target), ignoreState, { method: 'DELETE' });
}

/**
 * Un-ignores a track or an artist (the Ignored page, the artist page's add-back button). Every
 * query is refreshed: stats and suggestions everywhere leave ignored items out.
 */
export function useUnignoreMutation(target: IgnoreTarget) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  return useMutation({
    mutationKey: ['unignore', target.kind, target.key],
    mutationFn: () => deleteIgnore(target),
    onSuccess: () => queryClient.invalidateQueries(),
    onError: (error) =>
      notifications.push(`Failed to unignore ${target.name}: ${error.message}`, { kind: 'error' }),
  });
}
