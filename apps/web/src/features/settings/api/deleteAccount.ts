import { useMutation } from '@tanstack/react-query';
import { requestWithoutContent } from '../../../lib/apiClient';
import { loadPage } from '../../../lib/browserLocation';

/** `DELETE /api/user/me`: deletes the account and all its data; the typed username confirms. */
export function deleteAccount(confirmation: string): Promise<void> {
  return requestWithoutContent('/api/user/me', { method: 'DELETE', body: { confirmation } });
}

/** Deletes the account, then reloads to `/` as a visitor (every session has ended). */
export function useDeleteAccountMutation() {
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => loadPage('/'),
  });
}
