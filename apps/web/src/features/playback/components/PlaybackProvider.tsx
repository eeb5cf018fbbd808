import type { PlayContext } from '@earshot/contract/playback';
import type { TrackSummary } from '@earshot/contract/track';
import type { CurrentUser } from '@earshot/contract/user';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { PLAYBACK_CONTROL_OVERRIDE_MS, PLAYED_ITEM_OVERRIDE_MS } from '../../../lib/constants';
import { useNotificationStack } from '../../../lib/notifications';
import { PlayTrackContext, type PlayTrack, type PlayTrackRequest } from '../../../lib/playTrack';
import { fetchPlayback, PLAYBACK_QUERY_KEY } from '../api/playback';
import { postPlay } from '../api/play';
import { postTransfer } from '../api/transfer';
import { startPlayback, type PlayStartFlow } from '../playStart';
import { WebPlayer } from '../webPlayer';

/** A track a play action announced, shown until the real state arrives (docs/product.md). */
export interface AnnouncedItem {
  track: TrackSummary;
  at: number;
}

export interface PlaybackControl {
  /** Whether the user may pause, resume and skip (subscribed, or plan not known yet). */
  canControl: boolean;
  announced: AnnouncedItem | null;
  /** Forgets the announced item once the player shows it. */
  clearAnnounced(): void;
  /** Play/pause as last asked for, for PLAYBACK_CONTROL_OVERRIDE_MS. */
  playingOverride: boolean | null;
  overridePlaying(playing: boolean | null): void;
  /** The context of the last play started here: what "next" continues. */
  lastContext: PlayContext | null;
  webPlayer: WebPlayer;
  /**
   * Runs "Play start" for a track (announced in the mini player when its summary is known);
   * throws an Error whose message is the text to show.
   */
  start(request: PlayStart, flow: PlayStartFlow): Promise<void>;
}

export interface PlayStart {
  trackId: string;
  track: TrackSummary | null;
  context: PlayContext;
}

const PlaybackControlContext = createContext<PlaybackControl | null>(null);

export function usePlaybackControl(): PlaybackControl {
  const control = useContext(PlaybackControlContext);
  if (!control) throw new Error('usePlaybackControl needs a PlaybackProvider');
  return control;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A value that falls back to null `ms` after it was set. */
function useExpiringState<T>(ms: number) {
  const [value, setValue] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const set = useCallback(
    (next: T | null) => {
      clearTimeout(timer.current);
      setValue(next);
      if (next !== null) timer.current = setTimeout(() => setValue(null), ms);
    },
    [ms],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return [value, set] as const;
}

/**
 * The user's player for every logged-in page: the web player of this browser, the "Play start"
 * flow, and the short-lived local truths the mini player shows before Spotify confirms them.
 */
export function PlaybackProvider({
  user,
  children,
}: {
  /** Null for visitors: nobody plays. */
  user: CurrentUser | null;
  children: ReactNode;
}) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  const [announced, setAnnounced] = useExpiringState<AnnouncedItem>(PLAYED_ITEM_OVERRIDE_MS);
  const [playingOverride, overridePlaying] = useExpiringState<boolean>(
    PLAYBACK_CONTROL_OVERRIDE_MS,
  );
  const [lastContext, setLastContext] = useState<PlayContext | null>(null);
  const refreshPlayback = useCallback(
    () => queryClient.invalidateQueries({ queryKey: PLAYBACK_QUERY_KEY }),
    [queryClient],
  );
  const [webPlayer] = useState(() => new WebPlayer(() => void refreshPlayback()));
  useEffect(() => () => webPlayer.disconnect(), [webPlayer]);

  const canPlay = user !== null && user.subscribed !== false;

  const start = useCallback(
    async ({ trackId, track, context }: PlayStart, flow: PlayStartFlow) => {
      setAnnounced(track && { track, at: Date.now() });
      overridePlaying(null);
      setLastContext(context);
      try {
        await startPlayback({ track_id: trackId, context }, flow, {
          play: postPlay,
          // Why the web player failed ("SDK unavailable", "Failed to connect player") is told
          // too, before the flow's own "Cannot start web playback".
          startWebPlayer: () =>
            webPlayer.start().catch((error: unknown) => {
              notifications.push((error as Error).message, { kind: 'error' });
              throw error;
            }),
          transfer: (deviceId) => postTransfer({ device_id: deviceId, play: false }),
          fetchPlayback: () => fetchPlayback(),
          sleep,
        });
      } catch (error) {
        setAnnounced(null);
        throw error;
      } finally {
        await refreshPlayback();
      }
    },
    [notifications, overridePlaying, refreshPlayback, setAnnounced, webPlayer],
  );

  const control = useMemo<PlaybackControl>(
    () => ({
      canControl: canPlay,
      announced,
      clearAnnounced: () => setAnnounced(null),
      playingOverride,
      overridePlaying,
      lastContext,
      webPlayer,
      start,
    }),
    [
      announced,
      canPlay,
      lastContext,
      overridePlaying,
      start,
      playingOverride,
      setAnnounced,
      webPlayer,
    ],
  );
  const playTrack = useMemo<PlayTrack>(
    () => ({
      canPlay,
      play: async ({ track, context }: PlayTrackRequest) => {
        try {
          await start({ trackId: track.id, track, context }, 'play-button');
        } catch (error) {
          notifications.push((error as Error).message, { kind: 'error' });
        }
      },
    }),
    [canPlay, notifications, start],
  );

  return (
    <PlaybackControlContext.Provider value={control}>
      <PlayTrackContext.Provider value={playTrack}>{children}</PlayTrackContext.Provider>
    </PlaybackControlContext.Provider>
  );
}
