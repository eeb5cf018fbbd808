import type { ActivityItem } from '@earshot/contract/activity';
import { spotifyContextUri, type PlayContext } from '@earshot/contract/playback';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { AbsoluteDate } from '../../../components/ui/AbsoluteDate';
import { PlayButton } from '../../../components/ui/PlayButton';
import type { PointerMenuTarget } from '../../../components/ui/PointerMenu';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { usePointerMenuTrigger } from '../../../components/ui/usePointerMenuTrigger';
import { userActivityPath } from '../activityScope';
import type { ActivityFeed } from '../api/activityFeed';
import { LikeButton } from './LikeButton';

interface ActivityRowProps {
  item: ActivityItem;
  feed: ActivityFeed;
  viewerId: string;
  q: string;
  /** Extra state shown next to the title (e.g. "Ignored"). */
  badge: ReactNode;
  /** Where a play started from this row comes from (its Spotify context is added). */
  playSource: Omit<PlayContext, 'context_uri'>;
  onOpenMenu: (target: PointerMenuTarget) => void;
}

function playCountText(count: number): string {
  return count === 1 ? '1 play' : `${count.toLocaleString('en')} plays`;
}

/** One play or like: cover, title, artists, album, user, date, play count and the like heart. */
/** The play's Spotify context, when it is one a track can be started in. */
function playableContextUri(contextUri: string | null): string | null {
  return contextUri !== null && spotifyContextUri.safeParse(contextUri).success ? contextUri : null;
}

export function ActivityRow({
  item,
  feed,
  viewerId,
  q,
  badge,
  playSource,
  onOpenMenu,
}: ActivityRowProps) {
  const menuTrigger = usePointerMenuTrigger(onOpenMenu);
  const { track, user } = item;

  return (
    <li className="activity-row" {...menuTrigger}>
      <span className="activity-row__cover-cell">
        {track.album?.picture ? (
          <img
            className="activity-row__cover"
            src={track.album.picture}
            alt=""
            width={48}
            height={48}
            loading="lazy"
          />
        ) : (
          <span className="activity-row__cover" aria-hidden="true" />
        )}
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
          {badge}
        </span>
        <span className="activity-row__artists">
          {track.artists.map((artist, index) => (
            <Fragment key={`${artist.id}-${index}`}>
              {index > 0 && ', '}
              <Link to={`/artist/${encodeURIComponent(artist.id)}`}>{artist.name}</Link>
            </Fragment>
          ))}
        </span>
      </div>
      <span className="activity-row__album">
        {track.album && (
          <Link to={`/album/${encodeURIComponent(track.album.id)}`}>{track.album.name}</Link>
        )}
      </span>
      <span className="activity-row__meta">
        <Link className="activity-row__user" to={userActivityPath(feed, user, viewerId, q)}>
          {user.name || user.username}
        </Link>
        {feed === 'recent' ? <RelativeTime iso={item.date} /> : <AbsoluteDate iso={item.date} />}
        <span>{playCountText(item.play_count)}</span>
      </span>
      <LikeButton uid={track.uid} liked={item.liked} title={track.title} />
    </li>
  );
}
