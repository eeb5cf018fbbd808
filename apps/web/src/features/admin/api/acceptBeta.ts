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

export function useAcceptBetaMutation(email: string) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  return useMutation({
    mutationKey: ['admin', 'beta', email],
    mutationFn: () => postAcceptBeta(email),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminQueryKeys.all }),
    onError: (error) =>
      notifications.push(`Failed to accept ${email}: ${error.message}`, { kind: 'error' }),
  });
}
