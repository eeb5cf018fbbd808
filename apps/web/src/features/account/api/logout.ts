import { useMutation } from '@tanstack/react-query';
import { requestWithoutContent } from '../../../lib/apiClient';
import { loadPage } from '../../../lib/browserLocation';

export function postLogout(): Promise<void> {
  return requestWithoutContent('/api/logout', { method: 'POST' });
}

/** Logs out, then reloads the app at `/` so no state of the old session survives. */
export function useLogoutMutation() {
  return useMutation({
    mutationFn: postLogout,
    onSuccess: () => loadPage('/'),
  });
}
