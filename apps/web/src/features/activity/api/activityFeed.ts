import { ACTIVITY_PAGE_SIZE, activityPage, type ActivityPage } from '@earshot/contract/activity';
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
export type ActivityFeed = 'recent' | 'likes';

/** What a feed is narrowed to: the query of docs/product.md §7 without the paging. */
export interface ActivityFilters {
  /** False: friends only, without the viewer (`include_me=false`). */
  includeMe: boolean;
  /** One user (username or id), or everyone in scope. */
  user: string | null;
  /** The search text; empty for none. */
  q: string;
}

type ActivityFeedData = InfiniteData<ActivityPage, string | null>;

export const activityQueryKeys = {
  all: ['activity'] as const,
  feed: (feed: ActivityFeed, filters: ActivityFilters) => ['activity', feed, filters] as const,
};

function activityPageUrl(feed: ActivityFeed, filters: ActivityFilters, before: string | null) {
  const params = new URLSearchParams({ limit: String(ACTIVITY_PAGE_SIZE) });
  if (before !== null) params.set('before', before);
  if (!filters.includeMe) params.set('include_me', 'false');
  if (filters.user !== null) params.set('user', filters.user);
  if (filters.q !== '') params.set('q', filters.q);
  return `/api/${feed}?${params.toString()}`;
}

/** One page of a feed, after the page whose `next_before` is `before` (null: the first). */
export function fetchActivityPage(
  feed: ActivityFeed,
  filters: ActivityFilters,
  before: string | null,
  signal?: AbortSignal,
): Promise<ActivityPage> {
  return requestJson(activityPageUrl(feed, filters, before), activityPage, { signal });
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
