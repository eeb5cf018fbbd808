import type { PlayContext } from '@earshot/contract/playback';
import type { TrackSummary } from '@earshot/contract/track';
import { createContext, useContext } from 'react';

/** What a play button asks for: the track (shown in the mini player at once) and its context. */
export interface PlayTrackRequest {
  track: TrackSummary;
  context: PlayContext;
}

export interface PlayTrack {
  /** Whether the user may start playback (subscribed, or plan not known yet). */
  canPlay: boolean;
  /** Runs the "Play start" flow (docs/product.md); failures are shown as notifications. */
  play(request: PlayTrackRequest): Promise<void>;
}

const nobodyPlays: PlayTrack = { canPlay: false, play: async () => undefined };

/**
 * How any page starts a track without knowing the player: the playback feature provides it in
 * the app's layout, pages (feeds, track page, Discover) use it through `usePlayTrack`.
 */
export const PlayTrackContext = createContext<PlayTrack>(nobodyPlays);

export function usePlayTrack(): PlayTrack {
  return useContext(PlayTrackContext);
}
