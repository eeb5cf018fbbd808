import {
  activityFeedPath,
  activityPage,
  type ActivityFeed,
  type ActivityFilters,
  type ActivityPage,
} from '@earshot/contract/activity';
import {
  infiniteQueryOptions,
  useInfiniteQuery,
  type InfiniteData,
  type QueryClient,
  type QueryFilters,
} from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';

export type { ActivityFeed, ActivityFilters };

type ActivityFeedData = InfiniteData<ActivityPage, string | null>;

export const activityQueryKeys = {
  all: ['activity'] as const,
  feed: (feed: ActivityFeed, filters: ActivityFilters) => ['activity', feed, filters] as const,
};

/**
 * One page of a feed, after the page whose `next_before` is `before` (null: the first).
 * `GET /api/recent` and `GET /api/likes` have one query contract and one answer shape
 * (`activityPage`), so they share this fetcher and these query options.
 */
export function fetchActivityPage(
  feed: ActivityFeed,
  filters: ActivityFilters,
  before: string | null,
  signal?: AbortSignal,
): Promise<ActivityPage> {
  return requestJson(activityFeedPath(feed, filters, before), activityPage, { signal });
}

export function activityFeedQueryOptions(feed: ActivityFeed, filters: ActivityFilters) {
  return infiniteQueryOptions({
    queryKey: activityQueryKeys.feed(feed, filters),
    queryFn: ({ pageParam, signal }) => fetchActivityPage(feed, filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_before,
  });
}

export function useActivityFeedQuery(feed: ActivityFeed, filters: ActivityFilters) {
  return useInfiniteQuery(activityFeedQueryOptions(feed, filters));
}

/**
 * Applies `update` to the loaded pages of the feeds `filters` names, now and, for a feed whose
 * pages are on their way, once more as they land: TanStack Query builds a `fetchNextPage` or
 * refetch answer on the pages it started from, so a change made meanwhile would be lost (a fetch
 * paused offline has not landed yet). Every update given here must be safe to apply twice.
 * Answers a function that forgets the second applications still waiting, if any wait.
 */
export function updateLoadedFeeds(
  queryClient: QueryClient,
  filters: QueryFilters,
  update: (data: ActivityFeedData) => ActivityFeedData,
): (() => void) | undefined {
  const cache = queryClient.getQueryCache();
  const waiting: (() => void)[] = [];
  for (const query of cache.findAll(filters)) {
    const apply = () =>
      queryClient.setQueryData<ActivityFeedData>(query.queryKey, (data) =>
        data ? update(data) : data,
      );
    apply();
    if (query.state.fetchStatus === 'idle') continue;
    const unsubscribe = cache.subscribe((event) => {
      if (event.query !== query) return;
      if (event.type === 'removed') unsubscribe();
      else if (query.state.fetchStatus === 'idle') {
        unsubscribe();
        apply();
      }
    });
    waiting.push(unsubscribe);
  }
  if (waiting.length === 0) return undefined;
  return () => {
    for (const unsubscribe of waiting) unsubscribe();
  };
}

/** Sets the viewer's like of a song (uid) on every row of it in every loaded feed. */
export function setLikedInActivityFeeds(queryClient: QueryClient, uid: string, liked: boolean) {
  updateLoadedFeeds(queryClient, { queryKey: activityQueryKeys.all }, (data) => ({
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((item) =>
        item.track.uid === uid && item.liked !== liked ? { ...item, liked } : item,
      ),
    })),
  }));
}
