import {
  liveDropped,
  liveFriendship,
  liveLike,
  liveNowPlaying,
  livePlay,
  liveReady,
} from '@earshot/contract/live';
import type { LiveEventSchemas } from './liveStream';

/** How each event of `GET /api/live` is read; loaded by the stream when it first opens. */
export const LIVE_EVENT_SCHEMAS: LiveEventSchemas = {
  ready: liveReady,
  play: livePlay,
  like: liveLike,
  'now-playing': liveNowPlaying,
  friendship: liveFriendship,
  dropped: liveDropped,
};
