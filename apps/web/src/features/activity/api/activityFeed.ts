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
} from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';

/**
 * `GET /api/recent` and `GET /api/likes`: two feeds with one query contract and one answer
 * shape (`activityPage`), so they share this fetcher and these query options.
 */
export type { ActivityFeed, ActivityFilters };

type ActivityFeedData = InfiniteData<ActivityPage, string | null>;

export const activityQueryKeys = {
  all: ['activity'] as const,
  feed: (feed: ActivityFeed, filters: ActivityFilters) => ['activity', feed, filters] as const,
};

/** One page of a feed, after the page whose `next_before` is `before` (null: the first). */
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

/** Sets the viewer's like of a song (uid) on every row of it in every loaded feed. */
export function setLikedInActivityFeeds(queryClient: QueryClient, uid: string, liked: boolean) {
  queryClient.setQueriesData<ActivityFeedData>({ queryKey: activityQueryKeys.all }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((item) =>
              item.track.uid === uid && item.liked !== liked ? { ...item, liked } : item,
            ),
          })),
        }
      : data,
  );
}
