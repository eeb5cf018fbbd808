import { betaAccepted, type BetaAccepted } from '@earshot/contract/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';
import { adminQueryKeys } from './adminQueryKeys';

/** `POST /api/admin/notifications/beta/accept`. */
export function postAcceptBeta(email: string): Promise<BetaAccepted> {
  return requestJson('/api/admin/notifications/beta/accept', betaAccepted, {
    method: 'POST',
    body: { email },
  });
}

/**
 * Accepts one address. `onAccepted` runs with the mutation itself, before the list is read again:
 * the refetched list drops the row, and a callback given to `mutate` would die with it.
 */
export function useAcceptBetaMutation(email: string, onAccepted: () => void) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  return useMutation({
    mutationKey: ['admin', 'beta', email],
    mutationFn: () => postAcceptBeta(email),
    onSuccess: () => {
      onAccepted();
      return queryClient.invalidateQueries({ queryKey: adminQueryKeys.all });
    },
    onError: (error) =>
      notifications.push(`Failed to accept ${email}: ${error.message}`, { kind: 'error' }),
  });
}
