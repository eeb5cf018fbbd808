import { useMutation } from '@tanstack/react-query';
import { requestWithoutContent } from '../../../lib/apiClient';
import { loadPage } from '../../../lib/browserLocation';
import { forgetOfflineCopies, reportSavedQueriesError } from '../../../lib/savedQueries';

export function postLogout(): Promise<void> {
  return requestWithoutContent('/api/logout', { method: 'POST' });
}

/**
 * Logs out, then reloads the app at `/` so no state of the old session survives, in memory or
 * in the copies kept for offline use.
 */
export function useLogoutMutation() {
  return useMutation({
    mutationFn: postLogout,
    onSuccess: async () => {
      await forgetOfflineCopies().catch(reportSavedQueriesError);
      loadPage('/');
    },
  });
}
