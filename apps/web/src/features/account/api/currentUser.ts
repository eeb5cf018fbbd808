import { SIGNED_IN_COOKIE } from '@earshot/contract/session';
import type { CurrentUser } from '@earshot/contract/user';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, requestJson, requestWithoutContent } from '../../../lib/apiClient';
import { CURRENT_USER_RETRY, CURRENT_USER_STALE_MS } from '../../../lib/constants';
import { answeredJustNow, retryUnlessClientError } from '../../../lib/queryClient';

/** Whether the server marked this browser as holding a session (`SIGNED_IN_COOKIE`). */
export function holdsSession(): boolean {
  return document.cookie
    .split(';')
    .some((cookie) => cookie.trim().startsWith(`${SIGNED_IN_COOKIE}=`));
}

/**
 * The logged-in user. A 401 means "visitor", so it does not send the browser to /login; the
 * schema loads only for a user (every page asks, and visitors need no zod). A browser without
 * the signed-in cookie is a visitor's: it is not asked, so no 401 is logged on its console.
 */
export function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  if (!holdsSession()) return visitorOnceServerAnswers(signal);
  const schema = () => import('@earshot/contract/user').then((module) => module.currentUser);
  return requestJson('/api/user/me', schema, { signal, redirectOnAuthFailure: false });
}

/** A visitor, told apart from an outage (which the pages show) by the server answering at all. */
async function visitorOnceServerAnswers(signal?: AbortSignal): Promise<never> {
  await requestWithoutContent('/api/status', { signal });
  throw new ApiError(401, 'Not logged in');
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: ['user', 'me'],
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    staleTime: CURRENT_USER_STALE_MS,
    retry: retryUnlessClientError(CURRENT_USER_RETRY),
  });
}

/**
 * A failure answered just now (by the loader that asked as the navigation started) is not asked
 * again as the layout and the page mount: a visitor's 401 would otherwise make the first paint a
 * spinner until a second answer, a round trip more before the landing page shows. A failure any
 * older (an outage, a visitor who has since logged in elsewhere) is asked again on mount.
 */
export function useCurrentUserQuery() {
  return useQuery({
    ...currentUserQueryOptions(),
    retryOnMount: (query) => !answeredJustNow(query.state.errorUpdatedAt),
  });
}
