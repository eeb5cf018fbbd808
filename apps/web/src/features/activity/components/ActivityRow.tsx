import { formatCount } from '@earshot/contract/english';
import { ArtistLinks } from '../../../components/ui/ArtistLinks';
import type { ActivityItem } from '@earshot/contract/activity';
import { spotifyContextUri, type PlayContext } from '@earshot/contract/playback';
import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { AbsoluteDate } from '../../../components/ui/AbsoluteDate';
import { PlayButton } from '../../../components/ui/PlayButton';
import type { PointerMenuTarget } from '../../../components/ui/PointerMenu';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { usePointerMenuTrigger } from '../../../components/ui/usePointerMenuTrigger';
import { userActivityPath } from '../activityScope';
import type { ActivityFeed } from '../api/activityFeed';
import { LikeHeart } from './LikeButton';
import { Cover } from '../../../components/ui/Cover';

interface ActivityRowProps {
  item: ActivityItem;
  feed: ActivityFeed;
  viewerId: string;
  q: string;
  /** Extra state shown next to the title (e.g. "Ignored"). */
  renderBadge: (item: ActivityItem) => ReactNode;
  /** Where a play started from this row comes from (its Spotify context is added). */
  playSource: Omit<PlayContext, 'context_uri'>;
  openMenuFor: (item: ActivityItem) => (target: PointerMenuTarget) => void;
  /** A like call for the song runs (its list reads them once for all rows: decision 0041). */
  likePending: boolean;
  onLikeToggle: (uid: string, liked: boolean) => void;
}

function playCountText(count: number): string {
  return count === 1 ? '1 play' : `${formatCount(count)} plays`;
}

/** The play's Spotify context, when it is one a track can be started in. */
function playableContextUri(contextUri: string | null): string | null {
  return contextUri !== null && spotifyContextUri.safeParse(contextUri).success ? contextUri : null;
}

/**
 * One play or like: cover, title, artists, album, user, date, play count and the like heart.
 * Memoized: a live item or a like re-renders its own row, not the whole list (given the list's
 * stable callbacks and its items, which keep their identity across updates).
 */
export const ActivityRow = memo(function ActivityRow({
  item,
  feed,
  viewerId,
  q,
  renderBadge,
  playSource,
  openMenuFor,
  likePending,
  onLikeToggle,
}: ActivityRowProps) {
  const menuTrigger = usePointerMenuTrigger(openMenuFor(item));
  const { track, user } = item;

  return (
    <li className="track-list-row activity-row" {...menuTrigger}>
      <span className="activity-row__cover-cell">
        <Cover
          className="activity-row__cover"
          picture={track.album?.picture}
          size={48}
          loading="lazy"
        />
        <PlayButton
          className="activity-row__play"
          track={track}
          context={{ ...playSource, context_uri: playableContextUri(item.context_uri) }}
        />
      </span>
      <div className="activity-row__track">
        <span className="activity-row__title-line">
          <Link className="activity-row__title" to={`/track/${encodeURIComponent(track.id)}`}>
            {track.title}
          </Link>
          {renderBadge(item)}
        </span>
        <span className="activity-row__artists">
          <ArtistLinks artists={track.artists} />
        </span>
      </div>
      <span className="activity-row__album">
        {track.album && (
          <Link className="byline-link" to={`/album/${encodeURIComponent(track.album.id)}`}>
            {track.album.name}
          </Link>
        )}
      </span>
      <span className="activity-row__meta">
        <Link className="activity-row__user" to={userActivityPath(feed, user, viewerId, q)}>
          {user.name || user.username}
        </Link>
        {feed === 'recent' ? <RelativeTime iso={item.date} /> : <AbsoluteDate iso={item.date} />}
        <span>{playCountText(item.play_count)}</span>
      </span>
      <LikeHeart
        liked={item.liked}
        pending={likePending}
        title={track.title}
        onToggle={() => onLikeToggle(track.uid, !item.liked)}
      />
    </li>
  );
});
