import { ArtistLinks } from '../../../components/ui/ArtistLinks';
import type { CatalogueTrack } from '@earshot/contract/catalogue';
import type { TrackSummary } from '@earshot/contract/track';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDuration, formatPlays } from '../catalogueFormat';
import { Cover } from './CatalogueStatus';

/** The like button of a row, from the activity feature (composed in `app/`). */
export type RenderTrackLike = (track: TrackSummary, liked: boolean) => ReactNode;

interface TrackRowsProps {
  tracks: readonly CatalogueTrack[];
  /** "Tracks of Album X": the list's accessible name. */
  label: string;
  /** Album pages number their tracks and leave the album out. */
  variant: 'album' | 'list';
  renderLike: RenderTrackLike;
  /** Per row, e.g. when it was added to a playlist. */
  renderExtra?: (entry: CatalogueTrack, index: number) => ReactNode;
}

/** Tracks with their artists, album, duration (m:ss), the viewer's plays and like. */
export function TrackRows({ tracks, label, variant, renderLike, renderExtra }: TrackRowsProps) {
  return (
    <ol className="track-rows" aria-label={label}>
      {tracks.map((entry, index) => {
        const { track } = entry;
        return (
          <li key={`${track.id}-${index}`} className="track-row">
            {variant === 'album' ? (
              <span className="track-row__number">{index + 1}</span>
            ) : (
              <Cover picture={track.album?.picture ?? null} size={40} />
            )}
            <div className="track-row__text">
              <Link className="track-row__title" to={`/track/${encodeURIComponent(track.id)}`}>
                {track.title}
              </Link>
              <span className="track-row__detail">
                <ArtistLinks artists={track.artists} />
                {variant === 'list' && track.album && (
                  <>
                    {' · '}
                    <Link to={`/album/${encodeURIComponent(track.album.id)}`}>
                      {track.album.name}
                    </Link>
                  </>
                )}
              </span>
            </div>
            {renderExtra?.(entry, index)}
            {entry.play_count !== null && entry.play_count > 0 && (
              <span className="track-row__plays">{formatPlays(entry.play_count)}</span>
            )}
            <span className="track-row__duration">
              {track.duration !== null ? formatDuration(track.duration) : ''}
            </span>
            <span className="track-row__like">
              {entry.liked !== null && renderLike(track, entry.liked)}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
