import type { ActivityItem } from '@earshot/contract/activity';
import type { PlayContext } from '@earshot/contract/playback';
import { memo, useDeferredValue, useMemo, type ReactNode } from 'react';
import { InfiniteScrollSentinel } from '../../../components/ui/InfiniteScrollSentinel';
import { FEED_ROW_MIN_HEIGHT_PX } from '../../../lib/constants';
import { LoadingState } from '../../../components/ui/LoadingState';
import { NotSavedOffline, SavedCopyNote } from '../../../components/ui/SavedCopyNote';
import type { PointerMenuTarget } from '../../../components/ui/PointerMenu';
import { useTrackMenu } from '../../../components/ui/useTrackMenu';
import {
  activityQueryKeys,
  useActivityFeedQuery,
  type ActivityFeed,
  type ActivityFilters,
} from '../api/activityFeed';
import { useLikePendingUids, useLikeToggle } from '../api/like';
import { FEED_TEXTS } from '../feedTexts';
import { activityRowKey, useLiveFeed } from '../hooks/useLiveFeed';
import { ActivityRow } from './ActivityRow';

export interface TrackSlots {
  /** State shown next to a track's title. */
  renderTrackBadge: (item: ActivityItem) => ReactNode;
  /** The items of a track's context menu. */
  renderTrackMenuItems: (item: ActivityItem) => ReactNode;
}

interface ActivityListProps extends TrackSlots {
  feed: ActivityFeed;
  filters: ActivityFilters;
  viewerId: string;
}

interface FeedFailureProps {
  /** The feed's own error text. */
  text: string;
  /** What failed, from the error. */
  detail: string | undefined;
  onRetry: () => void;
}

function FeedFailure({ text, detail, onRetry }: FeedFailureProps) {
  return (
    <div className="activity-list__status activity-list__status--error" role="alert">
      <p>{text}</p>
      <p className="activity-list__detail">{detail}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

interface FeedRowsProps {
  items: ActivityItem[];
  label: string;
  feed: ActivityFeed;
  viewerId: string;
  q: string;
  renderBadge: TrackSlots['renderTrackBadge'];
  playSource: Omit<PlayContext, 'context_uri'>;
  openMenuFor: (item: ActivityItem) => (target: PointerMenuTarget) => void;
  /** The songs whose like call runs, read once for all rows (decision 0041). */
  likePendingUids: ReadonlySet<string>;
  onLikeToggle: (uid: string, liked: boolean) => void;
}

/**
 * How many rows of a feed's first answer to render before the rest (decision 0034): all the
 * screen can show, so the first paint fills it and the rows rendered later appear below it. No
 * more: on a phone each row rendered in that first task lengthens it.
 */
export function firstPaintRows(): number {
  const narrow = window.matchMedia?.('(max-width: 600px)').matches ?? false;
  const rows = Math.ceil(window.innerHeight / FEED_ROW_MIN_HEIGHT_PX[narrow ? 'narrow' : 'wide']);
  return Math.max(1, rows);
}

/** The rows themselves: rendered again only when the items or how they are shown change. */
const FeedRows = memo(function FeedRows({ items, label, likePendingUids, ...row }: FeedRowsProps) {
  return (
    <ol className="track-list activity-list" aria-label={label}>
      {items.map((item) => (
        <ActivityRow
          key={activityRowKey(item)}
          item={item}
          likePending={likePendingUids.has(item.track.uid)}
          {...row}
        />
      ))}
    </ol>
  );
});

/** A feed's rows, paged by infinite scroll, with the context menu of their tracks. */
export function ActivityList({
  feed,
  filters,
  viewerId,
  renderTrackBadge,
  renderTrackMenuItems,
}: ActivityListProps) {
  const query = useActivityFeedQuery(feed, filters);
  const live = useLiveFeed(feed, filters, viewerId);
  const { openFor, menu } = useTrackMenu(renderTrackMenuItems);
  const likePendingUids = useLikePendingUids();
  const toggleLike = useLikeToggle();
  const texts = FEED_TEXTS[feed];
  // The first answer paints its first rows at once and the rest in a background render that
  // yields to the browser (decision 0034): one long task less on a phone's first load. False at
  // first even when the answer is there at mount, as on a document's first page (decision 0047).
  const allRows = useDeferredValue(query.data !== undefined, false);
  const feedKey = JSON.stringify(activityQueryKeys.feed(feed, filters));
  const loaded = useMemo(
    () => ({ feedKey, items: query.data?.pages.flatMap((page) => page.items) }),
    [feedKey, query.data],
  );
  // New rows of the same feed (a burst of live plays, the next page) are rendered in the
  // background too, in slices that yield to the browser, not as one long task; until then the
  // rows shown stay. Changes to the rows shown (a like flipping) show at once, and so does a
  // feed's first answer (nothing older of it to show): it paints its first rows at once.
  const deferred = useDeferredValue(loaded);
  const shownLoaded =
    deferred.feedKey === feedKey &&
    deferred.items !== undefined &&
    deferred.items.length !== loaded.items?.length
      ? deferred.items
      : loaded.items;
  // The end is looked for only once the loaded rows are all shown: before, it is still in view
  // and would ask for page after page (decision 0034's background render).
  const caughtUp = shownLoaded === loaded.items;
  const playSource = useMemo(
    () => ({
      source: filters.includeMe ? feed : (`${feed}_friends` as const),
      user: filters.user,
    }),
    [feed, filters.includeMe, filters.user],
  );

  if (query.isPending)
    return query.fetchStatus === 'paused' ? <NotSavedOffline /> : <LoadingState />;
  if (query.data === undefined) {
    return (
      <FeedFailure
        text={texts.error}
        detail={query.error?.message}
        onRetry={() => void query.refetch()}
      />
    );
  }

  const shown = shownLoaded ?? [];
  const items = allRows ? shown : shown.slice(0, firstPaintRows());
  if (items.length === 0) return <p className="activity-list__status">{texts.empty}</p>;

  return (
    <>
      <SavedCopyNote savedAt={query.dataUpdatedAt} />
      {live.waiting > 0 && (
        <button type="button" className="new-items-pill" onClick={live.showWaiting}>
          {live.waiting} new
        </button>
      )}
      <FeedRows
        items={items}
        label={texts.title}
        feed={feed}
        viewerId={viewerId}
        q={filters.q}
        renderBadge={renderTrackBadge}
        playSource={playSource}
        openMenuFor={openFor}
        likePendingUids={likePendingUids}
        onLikeToggle={toggleLike}
      />
      <InfiniteScrollSentinel
        active={
          allRows &&
          caughtUp &&
          query.hasNextPage &&
          !query.isFetchingNextPage &&
          !query.isFetchNextPageError
        }
        onReached={() => void query.fetchNextPage()}
      />
      {query.isFetchingNextPage && <LoadingState label="Loading more…" />}
      {query.isFetchNextPageError && (
        <FeedFailure
          text={texts.error}
          detail={query.error?.message}
          onRetry={() => void query.fetchNextPage()}
        />
      )}
      {menu}
    </>
  );
}
