import type { CurrentUser } from '@earshot/contract/user';
import { ApiError } from '../../../lib/apiClient';
import { useCurrentUserQuery } from '../api/currentUser';

/**
 * Who is using the app, decided by `GET /api/user/me`: a user, a visitor (401/403), or unknown
 * because the backend cannot be reached or answered with an error.
 */
export type Session =
  | { status: 'loading' }
  | { status: 'authenticated'; user: CurrentUser }
  | { status: 'visitor' }
  | { status: 'unreachable' };

export function useSession(): Session {
  const query = useCurrentUserQuery();
  if (query.data) return { status: 'authenticated', user: query.data };
  if (query.isPending) return { status: 'loading' };
  if (
    query.error instanceof ApiError &&
    (query.error.status === 401 || query.error.status === 403)
  ) {
    return { status: 'visitor' };
  }
  return { status: 'unreachable' };
}
