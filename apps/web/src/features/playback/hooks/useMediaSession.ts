import type { TrackSummary } from '@earshot/contract/track';
import { useEffect, useRef } from 'react';

interface MediaSessionInput {
  track: TrackSummary | null;
  isPlaying: boolean;
  canControl: boolean;
  toggle(): void;
  next(): void;
}

/**
 * The playing track on the lock screen and in the system's media controls, with the media keys
 * for play/pause and next (the Media Session API, where the browser has it).
 */
export function useMediaSession({ track, isPlaying, canControl, toggle, next }: MediaSessionInput) {
  const actions = useRef({ isPlaying, toggle, next });
  useEffect(() => {
    actions.current = { isPlaying, toggle, next };
  });

  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    navigator.mediaSession.metadata = track
      ? new MediaMetadata({
          title: track.title,
          artist: track.artists.map((artist) => artist.name).join(', '),
          album: track.album?.name ?? '',
          artwork: track.album?.picture ? [{ src: track.album.picture }] : [],
        })
      : null;
  }, [track]);

  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    navigator.mediaSession.playbackState = track ? (isPlaying ? 'playing' : 'paused') : 'none';
  }, [track, isPlaying]);

  useEffect(() => {
    if (!('mediaSession' in navigator) || !canControl) return undefined;
    const session = navigator.mediaSession;
    const handlers: [MediaSessionAction, () => void][] = [
      ['play', () => !actions.current.isPlaying && actions.current.toggle()],
      ['pause', () => actions.current.isPlaying && actions.current.toggle()],
      ['nexttrack', () => actions.current.next()],
    ];
    for (const [action, handler] of handlers) session.setActionHandler(action, handler);
    return () => {
      for (const [action] of handlers) session.setActionHandler(action, null);
    };
  }, [canControl]);
}
