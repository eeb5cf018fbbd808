import type { SuggestionItem } from '@earshot/contract/suggestions';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PlayButton } from '../../../components/ui/PlayButton';
import type { PointerMenuTarget } from '../../../components/ui/PointerMenu';
import { usePointerMenuTrigger } from '../../../components/ui/usePointerMenuTrigger';

interface SuggestionRowProps {
  item: SuggestionItem;
  /** The like button of the track. */
  likeButton: ReactNode;
  onOpenMenu: (target: PointerMenuTarget) => void;
}

/** One suggestion: cover, title, artists, album, why it is suggested, play and the like heart. */
export function SuggestionRow({ item, likeButton, onOpenMenu }: SuggestionRowProps) {
  const menuTrigger = usePointerMenuTrigger(onOpenMenu);
  const { track } = item;
  return (
    <li className="suggestion-row" {...menuTrigger}>
      {track.album?.picture ? (
        <img
          className="suggestion-row__cover"
          src={track.album.picture}
          alt=""
          width={56}
          height={56}
          loading="lazy"
        />
      ) : (
        <span className="suggestion-row__cover" aria-hidden="true" />
      )}
      <div className="suggestion-row__text">
        <Link className="suggestion-row__title" to={`/track/${encodeURIComponent(track.id)}`}>
          {track.title}
        </Link>
        <span className="suggestion-row__byline">
          {track.artists.map((artist, index) => (
            <Fragment key={`${artist.id}-${index}`}>
              {index > 0 && ', '}
              <Link to={`/artist/${encodeURIComponent(artist.id)}`}>{artist.name}</Link>
            </Fragment>
          ))}
          {track.album && (
            <>
              {' · '}
              <Link to={`/album/${encodeURIComponent(track.album.id)}`}>{track.album.name}</Link>
            </>
          )}
        </span>
        <span className="suggestion-row__reason">{item.reason}</span>
      </div>
      <PlayButton track={track} context={{ source: 'discover', user: null, context_uri: null }} />
      {likeButton}
    </li>
  );
}
