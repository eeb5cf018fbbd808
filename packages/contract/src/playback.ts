import { z } from 'zod';
import { trackSummary } from './track';

/** Spotify's ids are 22 base-62 characters. */
export const spotifyId = z.string().regex(/^[0-9A-Za-z]{22}$/, 'must be a Spotify id');

/** The Spotify context a play may start in: an album, a playlist or an artist. */
export const spotifyContextUri = z
  .string()
  .regex(/^spotify:(album|playlist|artist):[0-9A-Za-z]{22}$/, 'must be a Spotify context URI');

/**
 * Where in Earshot a play was started. The feeds name their scope: `recent` and `likes` are the
 * viewer with their friends (or one user, named in `user`), `*_friends` the friends only.
 */
export const PLAY_SOURCES = [
  'recent',
  'recent_friends',
  'likes',
  'likes_friends',
  'discover',
  'track',
  'album',
  'playlist',
  'artist',
  'profile',
  'search',
  'player',
] as const;
export type PlaySource = (typeof PLAY_SOURCES)[number];

/** The sources whose "next" is the next item of an Earshot feed rather than Spotify's queue. */
export const FEED_PLAY_SOURCES = ['recent', 'recent_friends', 'likes', 'likes_friends'] as const;

export const playContext = z.object({
  source: z.enum(PLAY_SOURCES),
  /** The user (username or id) whose feed or page the play started from, if any. */
  user: z.string().min(1).max(64).nullable(),
  /** Spotify's context to play the track in (album, playlist, artist), if any. */
  context_uri: spotifyContextUri.nullable(),
});
export type PlayContext = z.infer<typeof playContext>;

/** `POST /api/spotify/play` (see docs/product.md, Play start). */
export const playRequest = z.object({ track_id: spotifyId, context: playContext });
export type PlayRequest = z.infer<typeof playRequest>;

/** Whether Spotify's player showed the track playing right after the command. */
export const playResponse = z
  .object({ track_id: z.string(), confirmed: z.boolean() })
  .meta({ id: 'PlayResponse' });
export type PlayResponse = z.infer<typeof playResponse>;

/** `GET /api/spotify/playback`: `state` is null when nothing plays on any device. */
export const playbackState = z
  .object({
    state: z
      .object({
        is_playing: z.boolean(),
        progress_ms: z.number().int(),
        /** Null while something Earshot does not show plays (an episode, an ad, a local file). */
        item: z.object({ liked: z.boolean(), track: trackSummary }).nullable(),
        device: z.object({ name: z.string(), type: z.string() }),
      })
      .nullable(),
  })
  .meta({ id: 'PlaybackState' });
export type PlaybackState = z.infer<typeof playbackState>;

/** `GET /api/spotify/next`: what should follow the playing track; null when nothing does. */
export const nextTrack = z
  .object({ next: z.object({ track_id: z.string() }).nullable() })
  .meta({ id: 'NextTrack' });
export type NextTrack = z.infer<typeof nextTrack>;

/**
 * `GET /api/spotify/token`: a short-lived access token for the Web Playback SDK, and where the
 * SDK's script is loaded from.
 */
export const playerToken = z
  .object({ access_token: z.string(), expires_in: z.number().int(), sdk_url: z.string() })
  .meta({ id: 'PlayerToken' });
export type PlayerToken = z.infer<typeof playerToken>;

export const device = z
  .object({ id: z.string(), name: z.string(), type: z.string(), is_active: z.boolean() })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof device>;

export const deviceList = z.object({ devices: z.array(device) }).meta({ id: 'DeviceList' });
export type DeviceList = z.infer<typeof deviceList>;

export const transferRequest = z.object({
  /** Spotify device ids are 40 hex digits; web players' may differ, so only the size is bounded. */
  device_id: z.string().regex(/^[0-9A-Za-z_-]{1,128}$/, 'must be a device id'),
  play: z.boolean().default(true),
});
export type TransferRequest = z.input<typeof transferRequest>;
