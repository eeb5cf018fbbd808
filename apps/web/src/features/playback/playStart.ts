import type { PlayRequest, PlaybackState } from '@earshot/contract/playback';
import {
  MINI_PLAYER_RETRY_AFTER_TRANSFER_MS,
  PLAY_RETRY_COUNT,
  PLAY_RETRY_DELAY_STEP_MS,
  PLAYBACK_POLL_COUNT,
  PLAYBACK_POLL_COUNT_AFTER_TRANSFER,
  PLAYBACK_POLL_INTERVAL_MS,
  TRACK_PAGE_RETRY_AFTER_TRANSFER_MS,
} from '../../lib/constants';

/** Texts of docs/product.md, Errors (Playback). */
export const PLAYBACK_FAILED_MESSAGE = 'Failed to start playback';
export const WEB_PLAYBACK_FAILED_MESSAGE = 'Cannot start web playback';
export const NO_DEVICE_MESSAGE =
  'Unable to start playback. Please open Spotify on another device or try again.';

/** The server's "no active device" answer: the web player takes over. */
export function isNoActiveDevice(error: unknown): boolean {
  return error instanceof Error && /no active device/i.test(error.message);
}

/** After a transfer the mini player waits 1 s, play buttons 1.5 s; then both retry and poll alike. */
export type PlayStartFlow = 'mini-player' | 'play-button';

export interface PlayStartDeps {
  play(request: PlayRequest): Promise<unknown>;
  /** Starts the web player in this browser; answers its device id. */
  startWebPlayer(): Promise<string>;
  transfer(deviceId: string): Promise<void>;
  fetchPlayback(): Promise<PlaybackState>;
  sleep(ms: number): Promise<void>;
}

function failure(error: unknown, fallback: string): Error {
  return new Error(error instanceof Error && error.message ? error.message : fallback);
}

/** Polls the player until it shows the track, `times` times at most. */
async function pollUntilPlaying(deps: PlayStartDeps, trackId: string, times: number) {
  for (let poll = 0; poll < times; poll++) {
    await deps.sleep(PLAYBACK_POLL_INTERVAL_MS);
    try {
      const { state } = await deps.fetchPlayback();
      if (state?.item?.track.id === trackId) return;
    } catch {
      // A failed poll is just one look less.
    }
  }
}

/**
 * "Play start" (docs/product.md): play; on "no active device" start the web player, transfer
 * playback to it, wait and retry; then poll until the player shows the track. Throws an Error
 * whose message is the text to show.
 */
export async function startPlayback(
  request: PlayRequest,
  flow: PlayStartFlow,
  deps: PlayStartDeps,
): Promise<void> {
  try {
    await deps.play(request);
    await pollUntilPlaying(deps, request.track_id, PLAYBACK_POLL_COUNT);
    return;
  } catch (error) {
    if (!isNoActiveDevice(error)) throw failure(error, PLAYBACK_FAILED_MESSAGE);
  }

  try {
    await deps.transfer(await deps.startWebPlayer());
  } catch {
    throw new Error(WEB_PLAYBACK_FAILED_MESSAGE);
  }

  await deps.sleep(
    flow === 'mini-player'
      ? MINI_PLAYER_RETRY_AFTER_TRANSFER_MS
      : TRACK_PAGE_RETRY_AFTER_TRANSFER_MS,
  );
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.play(request);
      break;
    } catch {
      if (attempt >= PLAY_RETRY_COUNT) throw new Error(NO_DEVICE_MESSAGE);
      await deps.sleep(PLAY_RETRY_DELAY_STEP_MS * attempt);
    }
  }
  await pollUntilPlaying(deps, request.track_id, PLAYBACK_POLL_COUNT_AFTER_TRANSFER);
}
