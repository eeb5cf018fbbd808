import { contextObject, trackObjectById, type ObjectContext } from '../web-api/objects';
import { deviceObject } from './devices';
import type { PlayerSnapshot } from './player';

/** Which commands the state disallows, as Spotify's `actions.disallows` lists them. */
function actions(snapshot: PlayerSnapshot) {
  return { disallows: snapshot.isPlaying ? { resuming: true } : { pausing: true } };
}

/** Spotify's CurrentlyPlayingObject (`GET /me/player/currently-playing`), in Spotify's order. */
export function currentlyPlayingObject(snapshot: PlayerSnapshot, context: ObjectContext) {
  return {
    timestamp: snapshot.changedAt,
    context: snapshot.context && contextObject(context, snapshot.context),
    progress_ms: snapshot.progressMs,
    item: trackObjectById(context, snapshot.trackId),
    currently_playing_type: 'track' as const,
    actions: actions(snapshot),
    is_playing: snapshot.isPlaying,
  };
}

/** Spotify's CurrentlyPlayingContextObject (`GET /me/player`): the same, with the device. */
export function playbackStateObject(snapshot: PlayerSnapshot, context: ObjectContext) {
  return {
    device: deviceObject(snapshot.device, true),
    shuffle_state: snapshot.shuffle,
    smart_shuffle: false,
    repeat_state: snapshot.repeat,
    ...currentlyPlayingObject(snapshot, context),
  };
}

/** Spotify's QueueObject (`GET /me/player/queue`). */
export function queueObject(
  queue: { current: string | null; next: readonly string[] },
  context: ObjectContext,
) {
  return {
    currently_playing: queue.current === null ? null : trackObjectById(context, queue.current),
    queue: queue.next.map((id) => trackObjectById(context, id)),
  };
}
