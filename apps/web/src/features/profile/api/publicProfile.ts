import { publicProfile, type PublicProfile } from '@earshot/contract/profile';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { ASKED_BY_THE_LOADER } from '../../../lib/queryClient';

export const profileQueryKeys = {
  all: ['profile'] as const,
  byHandle: (handle: string) => ['profile', handle] as const,
};

/** A public profile by username or id; a 404 means "Profile not found" (docs/product.md §8). */
export function fetchPublicProfile(handle: string, signal?: AbortSignal): Promise<PublicProfile> {
  return requestJson(`/api/user/${encodeURIComponent(handle)}/public`, publicProfile, { signal });
}

export function publicProfileQueryOptions(handle: string) {
  return queryOptions({
    queryKey: profileQueryKeys.byHandle(handle),
    queryFn: ({ signal }) => fetchPublicProfile(handle, signal),
  });
}

export function usePublicProfileQuery(handle: string) {
  return useQuery({ ...publicProfileQueryOptions(handle), ...ASKED_BY_THE_LOADER });
}
