import type { TrackSummary } from '@earshot/contract/track';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNotificationStack } from '../../../lib/notifications';
import {
  BUTTON_FLASH_MS,
  NEXT_TRACK_TRIGGER_MS,
  PLAYED_ITEM_LOADING_MAX_MS,
  PROGRESS_TICK_MS,
} from '../../../lib/constants';
import { postLike } from '../api/like';
import { fetchNextTrack } from '../api/nextTrack';
import { postPause } from '../api/pause';
import { PLAYBACK_QUERY_KEY, usePlaybackQuery } from '../api/playback';
import { postResume } from '../api/resume';
import { postSkipToNext } from '../api/skipToNext';
import { usePlaybackControl } from '../components/PlaybackProvider';

/** Texts of docs/product.md, Errors (Mini player). */
export const TOGGLE_FAILED_MESSAGE = 'Failed to toggle';
export const SKIP_FAILED_MESSAGE = 'Failed to skip';
export const LIKE_FAILED_MESSAGE = 'Failed to like';

const FALLBACK_CONTEXT = { source: 'player', user: null, context_uri: null } as const;

export type FlashedButton = 'toggle' | 'next';

export interface MiniPlayerView {
  track: TrackSummary | null;
  /** The player has answered once: until then it is not known that nothing plays. */
  known: boolean;
  /** The announced track waits for the real state: "Loading..." shows instead of progress. */
  loading: boolean;
  isPlaying: boolean;
  progressMs: number;
  durationMs: number;
  liked: boolean;
  deviceName: string | null;
  canControl: boolean;
  flashed: FlashedButton | null;
  error: string | null;
  toggle(): void;
  next(): void;
  like(): void;
}

/**
 * The mini player's state and timing rules (docs/product.md, Mini player item): the playback
 * state or the announced item (kept PLAYED_ITEM_OVERRIDE_MS, "Loading..." for at most
 * PLAYED_ITEM_LOADING_MAX_MS), play/pause overridden for PLAYBACK_CONTROL_OVERRIDE_MS after a
 * request, progress ticking every PROGRESS_TICK_MS, the next track asked for once per track when
 * playback stopped within NEXT_TRACK_TRIGGER_MS of the end, buttons flashing BUTTON_FLASH_MS.
 */
export function useMiniPlayer(): MiniPlayerView {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  const control = usePlaybackControl();
  const { announced, clearAnnounced, playingOverride, overridePlaying } = control;
  const playback = usePlaybackQuery();
  const state = playback.data?.state ?? null;
  const realItem = state?.item ?? null;

  const [flashed, setFlashed] = useState<FlashedButton | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [likedOverride, setLikedOverride] = useState<{ uid: string; liked: boolean } | null>(null);
  /** The announcement (by its time) whose "Loading..." has run out. */
  const [loadingExpiredFor, setLoadingExpiredFor] = useState<number | null>(null);
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: PLAYBACK_QUERY_KEY }),
    [queryClient],
  );

  // The announced item gives way to the real state as soon as the player shows it.
  const announcedShown = announced !== null && realItem?.track.id !== announced.track.id;
  useEffect(() => {
    if (announced && realItem?.track.id === announced.track.id) clearAnnounced();
  }, [announced, realItem, clearAnnounced]);
  useEffect(() => {
    if (!announced) return undefined;
    const left = announced.at + PLAYED_ITEM_LOADING_MAX_MS - Date.now();
    const timer = setTimeout(() => setLoadingExpiredFor(announced.at), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [announced]);

  const track = announcedShown ? announced.track : (realItem?.track ?? null);
  const durationMs = track?.duration ?? 0;
  const serverPlaying = announcedShown ? true : (state?.is_playing ?? false);
  const isPlaying = playingOverride ?? serverPlaying;

  // Progress: the server's at each answer, then PROGRESS_TICK_MS per tick while playing. Ticks
  // count from the answer (and track) they follow.
  const serverProgress = announcedShown ? 0 : (state?.progress_ms ?? 0);
  const tickKey = `${playback.dataUpdatedAt}|${track?.id ?? ''}`;
  const [ticks, setTicks] = useState({ key: '', count: 0 });
  useEffect(() => {
    if (!isPlaying || !track) return undefined;
    const timer = setInterval(() => {
      setTicks((current) => ({
        key: tickKey,
        count: current.key === tickKey ? current.count + 1 : 1,
      }));
    }, PROGRESS_TICK_MS);
    return () => clearInterval(timer);
  }, [isPlaying, track, tickKey]);
  const ticked = ticks.key === tickKey ? ticks.count * PROGRESS_TICK_MS : 0;
  const progressMs =
    durationMs > 0 ? Math.min(serverProgress + ticked, durationMs) : serverProgress;

  // The end of the track as the ticks saw it: ask the player soon rather than at the next poll.
  const reachedEnd = isPlaying && durationMs > 0 && progressMs >= durationMs;
  useEffect(() => {
    if (reachedEnd) void refresh();
  }, [reachedEnd, refresh]);

  // Playback stopped within NEXT_TRACK_TRIGGER_MS of the end: ask once for the next track.
  const lastPlaying = useRef<{ trackId: string; progressMs: number } | null>(null);
  const askedAfter = useRef<string | null>(null);
  useEffect(() => {
    if (track && isPlaying) lastPlaying.current = { trackId: track.id, progressMs };
  }, [track, isPlaying, progressMs]);
  useEffect(() => {
    if (!state || state.is_playing || !realItem || announcedShown) return;
    const { id, duration } = realItem.track;
    if (!duration) return;
    const heard =
      lastPlaying.current?.trackId === id
        ? Math.max(lastPlaying.current.progressMs, state.progress_ms)
        : state.progress_ms;
    if (heard < duration - NEXT_TRACK_TRIGGER_MS || askedAfter.current === id) return;
    askedAfter.current = id;
    void (async () => {
      try {
        const { next } = await fetchNextTrack();
        if (next) {
          const context = control.lastContext ?? FALLBACK_CONTEXT;
          await control.start({ trackId: next.track_id, track: null, context }, 'mini-player');
        }
      } catch (failure) {
        notifications.push((failure as Error).message, { kind: 'error' });
      }
      await refresh();
    })();
    // Only a new answer of the player can end a track.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [playback.dataUpdatedAt]);

  const flash = (button: FlashedButton) => {
    setFlashed(button);
    setTimeout(
      () => setFlashed((current) => (current === button ? null : current)),
      BUTTON_FLASH_MS,
    );
  };

  const toggle = () => {
    const playing = !isPlaying;
    flash('toggle');
    setError(null);
    overridePlaying(playing);
    (playing ? postResume() : postPause()).then(
      () => void refresh(),
      () => {
        overridePlaying(null);
        setError(TOGGLE_FAILED_MESSAGE);
      },
    );
  };

  // What follows in the Earshot context (a feed's next item, else Spotify's queue); with
  // nothing named, Spotify skips on its own.
  const next = () => {
    flash('next');
    setError(null);
    void (async () => {
      try {
        const { next: following } = await fetchNextTrack();
        if (following) {
          const context = control.lastContext ?? FALLBACK_CONTEXT;
          await control.start({ trackId: following.track_id, track: null, context }, 'mini-player');
        } else {
          await postSkipToNext();
          overridePlaying(null);
        }
      } catch {
        setError(SKIP_FAILED_MESSAGE);
      }
      await refresh();
    })();
  };

  const shownLiked =
    likedOverride && track && likedOverride.uid === track.uid
      ? likedOverride.liked
      : (realItem?.liked ?? false);
  const like = () => {
    if (!track) return;
    const liked = !shownLiked;
    setError(null);
    setLikedOverride({ uid: track.uid, liked });
    postLike(track.uid, liked).then(
      (answer) => {
        setLikedOverride({ uid: answer.uid, liked: answer.liked });
        void refresh();
      },
      () => {
        setLikedOverride(null);
        setError(LIKE_FAILED_MESSAGE);
      },
    );
  };

  return {
    track,
    known: !playback.isPending,
    loading: announcedShown && loadingExpiredFor !== announced.at,
    isPlaying,
    progressMs,
    durationMs,
    liked: shownLiked,
    deviceName: state?.device.name ?? null,
    canControl: control.canControl,
    flashed,
    error,
    toggle,
    next,
    like,
  };
}
