import { ArtistLinks } from '../../../components/ui/ArtistLinks';
import type { SuggestionItem } from '@earshot/contract/suggestions';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PlayButton } from '../../../components/ui/PlayButton';
import type { PointerMenuTarget } from '../../../components/ui/PointerMenu';
import { usePointerMenuTrigger } from '../../../components/ui/usePointerMenuTrigger';
import { Cover } from '../../../components/ui/Cover';

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
    <li className="track-list-row suggestion-row" {...menuTrigger}>
      <Cover
        className="suggestion-row__cover"
        picture={track.album?.picture}
        size={56}
        loading="lazy"
      />
      <div className="suggestion-row__text">
        <Link className="suggestion-row__title" to={`/track/${encodeURIComponent(track.id)}`}>
          {track.title}
        </Link>
        <span className="suggestion-row__byline">
          <span className="suggestion-row__artists">
            <ArtistLinks artists={track.artists} />
          </span>
          {track.album && <span className="suggestion-row__separator">{' · '}</span>}
          {track.album && (
            <span>
              <Link className="byline-link" to={`/album/${encodeURIComponent(track.album.id)}`}>
                {track.album.name}
              </Link>
            </span>
          )}
        </span>
        <span className="suggestion-row__reason">{item.reason}</span>
      </div>
      <PlayButton track={track} context={{ source: 'discover', user: null, context_uri: null }} />
      {likeButton}
    </li>
  );
}
