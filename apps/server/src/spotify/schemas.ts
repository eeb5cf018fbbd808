import { z } from 'zod';

export const tokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  scope: z.string().default(''),
  /** Absent on some refreshes: the old refresh token then stays valid. */
  refresh_token: z.string().min(1).optional(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;

export const accountsError = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});

export const webApiError = z.object({
  error: z.object({
    status: z.number(),
    message: z.string(),
    reason: z.string().optional(),
  }),
});

export const image = z.object({
  url: z.string(),
  height: z.number().nullable().optional(),
  width: z.number().nullable().optional(),
});

/** GET /me. `email`, `product` and `country` are absent for Development Mode apps. */
export const privateUser = z.object({
  id: z.string(),
  display_name: z.string().nullable().optional(),
  email: z.string().optional(),
  product: z.string().optional(),
  country: z.string().optional(),
  images: z.array(image).optional(),
});
export type PrivateUser = z.infer<typeof privateUser>;

export const simplifiedArtist = z.object({ id: z.string(), name: z.string() });

export const simplifiedAlbum = z.object({
  id: z.string(),
  name: z.string(),
  album_type: z.string().optional(),
  release_date: z.string().optional(),
  release_date_precision: z.string().optional(),
  total_tracks: z.number().int().optional(),
  images: z.array(image).nullable().optional(),
  artists: z.array(simplifiedArtist).default([]),
});
export type SimplifiedAlbum = z.infer<typeof simplifiedAlbum>;

/** A track; `id` is null for local files, which Earshot cannot identify and skips. */
export const track = z.object({
  id: z.string().nullable(),
  name: z.string(),
  album: simplifiedAlbum,
  artists: z.array(simplifiedArtist),
  duration_ms: z.number().int(),
  explicit: z.boolean().optional(),
  popularity: z.number().int().optional(),
  external_ids: z.object({ isrc: z.string().optional() }).optional(),
  track_number: z.number().int().optional(),
  disc_number: z.number().int().optional(),
  is_local: z.boolean().optional(),
});
export type SpotifyTrack = z.infer<typeof track>;

/**
 * `GET /me/player/currently-playing` (200; 204 means nothing). `item` is a track, an episode or
 * null (an ad, or a private session): only a track is Earshot's business.
 */
export const currentlyPlaying = z.object({
  is_playing: z.boolean(),
  progress_ms: z.number().int().nullable().optional(),
  currently_playing_type: z.string(),
  item: z.unknown().nullable().optional(),
});

export const fullArtist = simplifiedArtist.extend({
  genres: z.array(z.string()).optional(),
  popularity: z.number().int().optional(),
  followers: z.object({ total: z.number().int() }).optional(),
  images: z.array(image).nullable().optional(),
});
export type FullArtist = z.infer<typeof fullArtist>;

/** An album's track (no album of its own): `/albums/{id}` and `/albums/{id}/tracks`. */
export const simplifiedTrack = track.omit({ album: true, popularity: true, external_ids: true });
export type SimplifiedTrack = z.infer<typeof simplifiedTrack>;

export const albumTracksPage = z.object({
  items: z.array(simplifiedTrack),
  next: z.string().nullable(),
});

/** `/albums/{id}`: the album with the first page of its tracks. */
export const fullAlbum = simplifiedAlbum.extend({ tracks: albumTracksPage.optional() });
export type FullAlbum = z.infer<typeof fullAlbum>;

export const artistAlbumsPage = z.object({
  items: z.array(simplifiedAlbum),
  next: z.string().nullable(),
});

const context = z.object({ type: z.string(), uri: z.string() }).nullable();

/**
 * A local file (a file on the listener's device played through Spotify): no id, and none on its
 * album or artists either, so it does not parse as a catalogue track.
 */
export const localTrack = z.object({
  is_local: z.literal(true),
  id: z.null(),
  name: z.string(),
  uri: z.string(),
  duration_ms: z.number().int(),
});

export const recentlyPlayedPage = z.object({
  items: z.array(
    z.object({
      track: z.union([localTrack, track]),
      played_at: z.string(),
      context: context.optional(),
    }),
  ),
  next: z.string().nullable().optional(),
  cursors: z.object({ after: z.string().optional(), before: z.string().optional() }).nullable(),
});
export type RecentlyPlayedPage = z.infer<typeof recentlyPlayedPage>;

export const savedTracksPage = z.object({
  items: z.array(z.object({ added_at: z.string(), track })),
  next: z.string().nullable(),
  total: z.number().int(),
});

export const followedArtistsPage = z.object({
  artists: z.object({
    items: z.array(fullArtist),
    next: z.string().nullable(),
    cursors: z.object({ after: z.string().nullable().optional() }).nullable(),
  }),
});

export const simplifiedPlaylist = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  public: z.boolean().nullable().optional(),
  collaborative: z.boolean(),
  owner: z.object({ id: z.string(), display_name: z.string().nullable().optional() }),
  images: z.array(image).nullable().optional(),
  snapshot_id: z.string().optional(),
  /** `items` since February 2026; `tracks` before (and still, deprecated). */
  items: z.object({ total: z.number().int() }).optional(),
  tracks: z.object({ total: z.number().int() }).nullable().optional(),
});
export type SimplifiedPlaylist = z.infer<typeof simplifiedPlaylist>;

/**
 * A page of `/playlists/{id}/items`: each entry's object is `item` (since February 2026) or
 * `track`; episodes and removed tracks do not parse as tracks and are skipped by the reader.
 */
export const playlistItemsPage = z.object({
  items: z.array(
    z.object({
      added_at: z.string().nullable().optional(),
      item: z.unknown().optional(),
      track: z.unknown().optional(),
    }),
  ),
  next: z.string().nullable(),
});

export const containsAnswer = z.array(z.boolean());

export const playlistsPage = z.object({
  items: z.array(simplifiedPlaylist),
  next: z.string().nullable(),
});

export const tracksBatch = z.object({ tracks: z.array(track.nullable()) });
export const artistsBatch = z.object({ artists: z.array(fullArtist.nullable()) });
export const albumsBatch = z.object({ albums: z.array(fullAlbum.nullable()) });

/** GET /search: a page per type asked; Spotify may leave null holes in `items`. */
export const searchPage = z.object({
  tracks: z.object({ items: z.array(track.nullable()) }).optional(),
  albums: z.object({ items: z.array(simplifiedAlbum.nullable()) }).optional(),
  artists: z.object({ items: z.array(fullArtist.nullable()) }).optional(),
});
export type SearchPage = z.infer<typeof searchPage>;

/** A Spotify Connect device; `id` is null for devices that cannot be controlled. */
export const device = z.object({
  id: z.string().nullable(),
  name: z.string(),
  type: z.string(),
  is_active: z.boolean(),
  is_restricted: z.boolean().optional(),
});
export type SpotifyDevice = z.infer<typeof device>;

export const devicesResponse = z.object({ devices: z.array(device) });

/** GET /me/player. `item` is an episode or null at times: only tracks are read. */
export const playbackStateResponse = z.object({
  device,
  is_playing: z.boolean(),
  progress_ms: z.number().int().nullable(),
  currently_playing_type: z.string().optional(),
  item: z.unknown().nullable(),
  context: context.optional(),
});
export type PlaybackStateResponse = z.infer<typeof playbackStateResponse>;

export const queueResponse = z.object({
  queue: z.array(z.looseObject({ id: z.string().nullable().optional(), type: z.string() })),
});
