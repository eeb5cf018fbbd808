import { currentUser, type CurrentUser } from '@earshot/contract/user';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { CURRENT_USER_RETRY, CURRENT_USER_STALE_MS } from '../../../lib/constants';
import { retryUnlessClientError } from '../../../lib/queryClient';

/** The logged-in user. A 401 means "visitor", so it does not send the browser to /login. */
export function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  return requestJson('/api/user/me', currentUser, { signal, redirectOnAuthFailure: false });
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: ['user', 'me'],
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    staleTime: CURRENT_USER_STALE_MS,
    retry: retryUnlessClientError(CURRENT_USER_RETRY),
  });
}

export function useCurrentUserQuery() {
  return useQuery(currentUserQueryOptions());
}
