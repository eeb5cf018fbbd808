import { ignoredList, type IgnoredList } from '@earshot/contract/ignore';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { IGNORED_LIST_STALE_MS } from '../../../lib/constants';

export const ignoredListQueryKey = ['ignore', 'list'] as const;

/** `GET /api/ignore`: the viewer's ignored artists and tracks. */
export function fetchIgnoredList(signal?: AbortSignal): Promise<IgnoredList> {
  return requestJson('/api/ignore', ignoredList, { signal });
}

export function ignoredListQueryOptions() {
  return queryOptions({
    queryKey: ignoredListQueryKey,
    queryFn: ({ signal }) => fetchIgnoredList(signal),
    staleTime: IGNORED_LIST_STALE_MS,
  });
}

/** Stable, so the query keeps one set per answer however many rows ask. */
function ignoredTrackUids(list: IgnoredList): ReadonlySet<string> {
  return new Set(list.tracks.map((item) => item.track.uid));
}

/** The uids of the viewer's ignored tracks. */
export function useIgnoredTrackUidsQuery() {
  return useQuery({ ...ignoredListQueryOptions(), select: ignoredTrackUids });
}
