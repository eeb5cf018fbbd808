import { useState } from 'react';
import { usePlayTrack, type PlayTrackRequest } from '../../lib/playTrack';
import { PlayIcon } from './icons';
import './playButton.css';

interface PlayButtonProps extends PlayTrackRequest {
  /** Extra class for the page's layout. */
  className?: string;
}

/** Plays a track through the app's player; shown only to users who may play. */
export function PlayButton({ track, context, className }: PlayButtonProps) {
  const player = usePlayTrack();
  const [starting, setStarting] = useState(false);
  if (!player.canPlay) return null;

  async function start() {
    setStarting(true);
    try {
      await player.play({ track, context });
    } finally {
      setStarting(false);
    }
  }

  return (
    <button
      type="button"
      className={className ? `play-button ${className}` : 'play-button'}
      aria-label={`Play ${track.title}`}
      title="Play"
      disabled={starting}
      aria-busy={starting}
      onClick={() => void start()}
    >
      <PlayIcon size={18} />
    </button>
  );
}
