/// <reference types="spotify-web-playback-sdk" />
import { albumImages } from '../images/covers';
import type { PlayerSnapshot } from '../player/player';
import type { PlayContext, Track, World } from '../world/model';

/** How many tracks before and after the current one the SDK's track window shows. */
const TRACK_WINDOW = 2;
const REPEAT_MODES = { off: 0, context: 1, track: 2 } as const;

type EntityKind = PlayContext['type'] | 'track';

function entity(kind: EntityKind, id: string, name: string, publicUrl: string): Spotify.Entity {
  return { name, uri: `spotify:${kind}:${id}`, url: `${publicUrl}/v1/${kind}s/${id}` };
}

function sdkTrack(track: Track, world: World, publicUrl: string): Spotify.Track {
  const album = world.album(track.albumId);
  return {
    album: {
      name: album?.name ?? '',
      uri: `spotify:album:${track.albumId}`,
      images: album ? albumImages(album, publicUrl) : [],
    },
    artists: track.artistIds.flatMap((id) => {
      const artist = world.artist(id);
      return artist ? [entity('artist', id, artist.name, publicUrl)] : [];
    }),
    duration_ms: track.durationMs,
    id: track.id,
    is_playable: true,
    name: track.name,
    uid: track.id,
    uri: `spotify:track:${track.id}`,
    media_type: 'audio',
    type: 'track',
    track_type: 'audio',
    linked_from: { uri: null, id: null },
  };
}

function contextTrack(track: Track, world: World, publicUrl: string): Spotify.PlaybackContextTrack {
  const sdk = sdkTrack(track, world, publicUrl);
  return {
    name: sdk.name,
    uri: sdk.uri,
    url: `${publicUrl}/v1/tracks/${track.id}`,
    artists: sdk.artists,
    content_type: 'music',
    estimated_duration: track.durationMs,
    group: entity('album', track.albumId, sdk.album.name, publicUrl),
    images: sdk.album.images,
    uid: sdk.uid,
  };
}

function contextId(context: PlayContext): string {
  return context.uri.split(':').pop() ?? '';
}

function contextName(context: PlayContext, world: World): string {
  const id = contextId(context);
  if (context.type === 'album') return world.album(id)?.name ?? '';
  if (context.type === 'playlist') return world.playlist(id)?.name ?? '';
  return world.artist(id)?.name ?? '';
}

/**
 * The Web Playback SDK's state (`player_state_changed`, `getCurrentState()`), as the types of
 * `@types/spotify-web-playback-sdk` describe it, for the web player that is the active device.
 */
export function webPlaybackState(
  snapshot: PlayerSnapshot,
  world: World,
  publicUrl: string,
  now: number,
): Spotify.PlaybackState {
  const tracksOf = (ids: readonly string[]) =>
    ids.flatMap((id) => {
      const track = world.track(id);
      return track ? [track] : [];
    });
  const current = world.track(snapshot.trackId);
  if (!current) throw new Error(`spotify-sandbox: the player lost track ${snapshot.trackId}`);
  const previous = tracksOf(snapshot.playback?.playedBefore(TRACK_WINDOW) ?? []);
  const next = tracksOf(snapshot.playback?.upNext(TRACK_WINDOW) ?? []);
  const paused = !snapshot.isPlaying;
  const noPrevious = previous.length === 0 && snapshot.repeat === 'off';
  const noNext = next.length === 0;
  const reasons = (disallowed: boolean, reason: string) => (disallowed ? [reason] : []);
  const { context } = snapshot;
  return {
    context: {
      uri: context?.uri ?? null,
      metadata: context && {
        ...entity(context.type, contextId(context), contextName(context, world), publicUrl),
        current_item: contextTrack(current, world, publicUrl),
        next_items: next.map((track) => contextTrack(track, world, publicUrl)),
        previous_items: previous.map((track) => contextTrack(track, world, publicUrl)),
        restrictions: {
          pause: reasons(paused, 'already_paused'),
          resume: reasons(!paused, 'not_paused'),
          seek: [],
          skip_next: reasons(noNext, 'no_next_track'),
          skip_prev: reasons(noPrevious, 'no_prev_track'),
          toggle_repeat_context: [],
          toggle_repeat_track: [],
          toggle_shuffle: [],
          peek_next: [],
          peek_prev: [],
        },
        options: { repeat_mode: snapshot.repeat, shuffled: snapshot.shuffle },
      },
    },
    disallows: {
      pausing: paused,
      resuming: !paused,
      skipping_next: noNext,
      skipping_prev: noPrevious,
    },
    duration: current.durationMs,
    paused,
    position: snapshot.progressMs,
    loading: false,
    timestamp: now,
    repeat_mode: REPEAT_MODES[snapshot.repeat],
    shuffle: snapshot.shuffle,
    restrictions: {
      disallow_pausing_reasons: reasons(paused, 'already_paused'),
      disallow_resuming_reasons: reasons(!paused, 'not_paused'),
      disallow_skipping_next_reasons: reasons(noNext, 'no_next_track'),
      disallow_skipping_prev_reasons: reasons(noPrevious, 'no_prev_track'),
    },
    track_window: {
      current_track: sdkTrack(current, world, publicUrl),
      previous_tracks: previous.map((track) => sdkTrack(track, world, publicUrl)),
      next_tracks: next.map((track) => sdkTrack(track, world, publicUrl)),
    },
    playback_id: `${snapshot.changedAt.toString(36)}${snapshot.trackId}`,
    playback_quality: 'NORMAL',
    playback_features: { hifi_status: 'NONE' },
  };
}
