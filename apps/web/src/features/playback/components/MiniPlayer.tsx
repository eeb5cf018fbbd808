import { ArtistLinks } from '../../../components/ui/ArtistLinks';
import { Link } from 'react-router';
import { LikesIcon, NextIcon, PauseIcon, PlayIcon } from '../../../components/ui/icons';
import { useMediaSession } from '../hooks/useMediaSession';
import { useMiniPlayer } from '../hooks/useMiniPlayer';
import { DevicePicker } from './DevicePicker';
import './playback.css';
import { Cover } from '../../../components/ui/Cover';

export const LOADING_TEXT = 'Loading...';
export const NOTHING_PLAYING_TEXT = 'Nothing playing';

function minutesAndSeconds(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The persistent mini player (docs/product.md, Mini player): cover, title, artists, progress,
 * like, and for subscribed users play/pause, next and the device picker. Always there once
 * signed in: while nothing plays it says so (once the player has answered) and keeps the device
 * picker within reach, so a listener can wake a device before playing anything.
 */
export function MiniPlayer() {
  const player = useMiniPlayer();
  const { track } = player;
  useMediaSession(player);

  const percent =
    track && player.durationMs > 0 ? (player.progressMs / player.durationMs) * 100 : 0;
  const flashClass = (button: 'toggle' | 'next') =>
    player.flashed === button
      ? 'round-button mini-player__button mini-player__button--flash'
      : 'round-button mini-player__button';

  // One tree whatever plays, so an open device menu stays open when playback starts or stops.
  // Until the player has answered, no controls: they come in with the track, all at once,
  // rather than the device picker first and pushed aside by the others (a layout shift).
  return (
    <section className="mini-player" aria-label="Mini player">
      <Cover className="mini-player__cover" picture={track?.album?.picture} size={48} />
      <div className="mini-player__track">
        {track ? (
          <>
            <Link className="mini-player__title" to={`/track/${encodeURIComponent(track.id)}`}>
              {track.title}
            </Link>
            <span className="mini-player__artists">
              <ArtistLinks artists={track.artists} />
            </span>
            {player.loading ? (
              <span className="mini-player__loading">{LOADING_TEXT}</span>
            ) : (
              <span className="mini-player__progress">
                <span className="mini-player__time">{minutesAndSeconds(player.progressMs)}</span>
                <span
                  className="mini-player__bar"
                  role="progressbar"
                  aria-label="Progress"
                  aria-valuemin={0}
                  aria-valuemax={Math.round(player.durationMs / 1000)}
                  aria-valuenow={Math.round(player.progressMs / 1000)}
                >
                  <span className="mini-player__bar-fill" style={{ width: `${percent}%` }} />
                </span>
                <span className="mini-player__time">{minutesAndSeconds(player.durationMs)}</span>
              </span>
            )}
          </>
        ) : (
          player.known && <span className="mini-player__idle">{NOTHING_PLAYING_TEXT}</span>
        )}
      </div>
      {player.known && (
        <div className="mini-player__controls">
          {player.error && (
            <span className="mini-player__error" role="alert" title={player.error}>
              <span aria-hidden="true">!</span>
              <span className="visually-hidden">{player.error}</span>
            </span>
          )}
          {track && (
            <button
              type="button"
              className={
                player.liked
                  ? 'round-button mini-player__like mini-player__like--liked'
                  : 'round-button mini-player__like'
              }
              aria-label={`Like ${track.title}`}
              aria-pressed={player.liked}
              title={player.liked ? 'Unlike' : 'Like'}
              onClick={player.like}
            >
              <LikesIcon size={20} />
            </button>
          )}
          {track && player.canControl && (
            <>
              <button
                type="button"
                className={`${flashClass('toggle')} mini-player__button--primary`}
                aria-label={player.isPlaying ? 'Pause' : 'Play'}
                title={player.isPlaying ? 'Pause' : 'Play'}
                onClick={player.toggle}
              >
                {player.isPlaying ? <PauseIcon size={20} /> : <PlayIcon size={20} />}
              </button>
              <button
                type="button"
                className={flashClass('next')}
                aria-label="Next"
                title="Next"
                onClick={player.next}
              >
                <NextIcon size={20} />
              </button>
            </>
          )}
          <DevicePicker />
        </div>
      )}
    </section>
  );
}
