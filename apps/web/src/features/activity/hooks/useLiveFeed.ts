import type { ActivityItem, ActivityPage } from '@earshot/contract/activity';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LIVE_FEED_BATCH_MS, LIVE_SCROLLED_PX } from '../../../lib/constants';
import { useLiveEvent } from '../../../lib/live';
import {
  activityQueryKeys,
  updateLoadedFeeds,
  type ActivityFeed,
  type ActivityFilters,
} from '../api/activityFeed';

type FeedData = InfiniteData<ActivityPage, string | null>;

export function activityRowKey(item: ActivityItem): string {
  return `${item.user.id}|${item.date}|${item.track.id}`;
}

/** Whether a live item belongs on the feed as filtered (a search shows no live items). */
function belongs(item: ActivityItem, filters: ActivityFilters, viewerId: string): boolean {
  if (filters.q !== '') return false;
  if (!filters.includeMe && item.user.id === viewerId) return false;
  if (filters.user !== null)
    return filters.user === item.user.id || filters.user === item.user.username;
  return true;
}

/** The items put in, newest first, into the first page (skipping any already there). */
function withItems(data: FeedData, items: ActivityItem[]): FeedData {
  const [first, ...rest] = data.pages;
  if (!first) return data;
  const shown = new Set(data.pages.flatMap((page) => page.items.map(activityRowKey)));
  const added = items.filter((item) => !shown.has(activityRowKey(item)));
  if (added.length === 0) return data;
  const merged = [...added, ...first.items].sort((a, b) =>
    a.date < b.date ? 1 : a.date > b.date ? -1 : 0,
  );
  return { ...data, pages: [{ ...first, items: merged }, ...rest] };
}

function withoutLike(data: FeedData, userId: string, uid: string): FeedData {
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.filter((item) => !(item.user.id === userId && item.track.uid === uid)),
    })),
  };
}

/**
 * New plays (Recent) or likes (Likes) from the live stream, put at the top of the loaded feed
 * without a reload. While the viewer has scrolled down they wait instead (`waiting`), so the page
 * does not move under them, until `showWaiting` (the "N new" pill) or a scroll back to the top.
 */
export function useLiveFeed(feed: ActivityFeed, filters: ActivityFilters, viewerId: string) {
  const queryClient = useQueryClient();
  const queryKey = activityQueryKeys.feed(feed, filters);
  const feedKey = JSON.stringify(queryKey);
  // Kept with the feed they wait for: another feed or filter starts with none.
  const [held, setHeld] = useState<{ feedKey: string; items: ActivityItem[] }>({
    feedKey,
    items: [],
  });
  const waiting = useMemo(() => (held.feedKey === feedKey ? held.items : []), [held, feedKey]);
  const setWaiting = (update: (items: ActivityItem[]) => ActivityItem[]) =>
    setHeld((current) => ({
      feedKey,
      items: update(current.feedKey === feedKey ? current.items : []),
    }));

  // The second applications of live changes waiting for pages on their way.
  const secondApplications = useRef(new Set<() => void>());
  /** Applies a live change to the loaded feed (see `updateLoadedFeeds`: it may run twice). */
  const updateFeed = useCallback(
    (update: (data: FeedData) => FeedData) => {
      const thisFeed = { queryKey: activityQueryKeys.feed(feed, filters), exact: true };
      const forget = updateLoadedFeeds(queryClient, thisFeed, update);
      if (forget) secondApplications.current.add(forget);
    },
    // The key is made from these values: a new filters object with the same values is the same feed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, feed, filters.includeMe, filters.user, filters.q],
  );
  useEffect(() => {
    const pending = secondApplications.current;
    return () => {
      // Another feed or filter: its changes are not this one's.
      for (const forget of pending) forget();
      pending.clear();
    };
  }, [updateFeed]);

  const insert = useCallback(
    (items: ActivityItem[]) => updateFeed((data) => withItems(data, items)),
    [updateFeed],
  );

  // Items on their way to the top of the feed, put in together (LIVE_FEED_BATCH_MS).
  const batch = useRef<{ items: ActivityItem[]; timer?: ReturnType<typeof setTimeout> }>({
    items: [],
  });
  useEffect(() => {
    const pending = batch.current;
    return () => {
      // Another feed or filter: what was on its way belonged to this one.
      clearTimeout(pending.timer);
      pending.items = [];
      pending.timer = undefined;
    };
  }, [insert]);

  const arrived = (item: ActivityItem) => {
    if (!belongs(item, filters, viewerId)) return;
    if (queryClient.getQueryData<FeedData>(queryKey) === undefined) return;
    if (window.scrollY > LIVE_SCROLLED_PX) {
      setWaiting((list) =>
        list.some((other) => activityRowKey(other) === activityRowKey(item))
          ? list
          : [item, ...list],
      );
      return;
    }
    const pending = batch.current;
    pending.items.push(item);
    pending.timer ??= setTimeout(() => {
      const items = pending.items;
      pending.items = [];
      pending.timer = undefined;
      insert(items);
    }, LIVE_FEED_BATCH_MS);
  };

  useLiveEvent('play', (item) => {
    if (feed === 'recent') arrived(item);
  });
  useLiveEvent('like', ({ unliked, ...item }) => {
    if (feed !== 'likes') return;
    if (!unliked) {
      arrived(item);
      return;
    }
    setWaiting((list) =>
      list.filter(
        (other) => !(other.user.id === item.user.id && other.track.uid === item.track.uid),
      ),
    );
    updateFeed((data) => withoutLike(data, item.user.id, item.track.uid));
  });

  const showWaiting = useCallback(() => {
    if (waiting.length > 0) insert(waiting);
    setHeld({ feedKey, items: [] });
  }, [waiting, insert, feedKey]);

  // Back at the top by themselves: what waited comes in.
  useEffect(() => {
    if (waiting.length === 0) return undefined;
    const onScroll = () => {
      if (window.scrollY <= LIVE_SCROLLED_PX) showWaiting();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [waiting.length, showWaiting]);

  return {
    waiting: waiting.length,
    showWaiting: () => {
      showWaiting();
      window.scrollTo({ top: 0, behavior: 'smooth' });
    },
  };
}
