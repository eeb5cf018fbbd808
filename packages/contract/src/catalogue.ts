import { z } from 'zod';
import { trackSummary } from './track';

/*
 * The public catalogue pages: artist, album, track and playlist, and the viewer's playlists
 * (docs/product.md, "Artist page", "Track page", "Album page", "Playlist page", "Playlists").
 * Personal fields are null for visitors who are not logged in.
 */

/** A friend of the viewer who plays the item, with how often. */
export const friendListenerSchema = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  picture: z.string().nullable(),
  play_count: z.number().int(),
});
export type FriendListener = z.infer<typeof friendListenerSchema>;

/** "Who do I know who listens to this?": null for visitors. */
export const viewerListeningSchema = z
  .object({
    /** The viewer's own plays. */
    play_count: z.number().int(),
    /** Friends who played it, the most plays first. */
    friends: z.array(friendListenerSchema),
  })
  .meta({ id: 'ViewerListening' });
export type ViewerListening = z.infer<typeof viewerListeningSchema>;

/**
 * Set when Spotify could not fill in what Earshot lacks (rate limit, outage, Development Mode
 * limits): the answer then holds what Earshot had stored, and this says why it may be incomplete.
 */
const notice = z.string().nullable();

export const artistCreditSchema = z.object({
  id: z.string(),
  name: z.string(),
  picture: z.string().nullable(),
});
export type ArtistCredit = z.infer<typeof artistCreditSchema>;

/** `GET /api/artist/{id}`. Genres, followers and popularity are unknown for some apps. */
export const artistDetailSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    picture: z.string().nullable(),
    genres: z.array(z.string()),
    followers: z.number().int().nullable(),
    popularity: z.number().int().nullable(),
    /** Null for visitors and when Spotify could not say. */
    is_followed: z.boolean().nullable(),
    /** The viewer's liked tracks by this artist; null for visitors. */
    user_liked_tracks: z.number().int().nullable(),
    /** The counts of the Tracks and Albums tabs. */
    track_count: z.number().int(),
    album_count: z.number().int(),
    listening: viewerListeningSchema.nullable(),
  })
  .meta({ id: 'ArtistDetail' });
export type ArtistDetail = z.infer<typeof artistDetailSchema>;

/** A track in a list of the catalogue pages, with the viewer's like and plays. */
export const catalogueTrackSchema = z
  .object({
    track: trackSummary,
    /** Null for visitors. */
    liked: z.boolean().nullable(),
    /** The viewer's plays; null for visitors. */
    play_count: z.number().int().nullable(),
  })
  .meta({ id: 'CatalogueTrack' });
export type CatalogueTrack = z.infer<typeof catalogueTrackSchema>;

/** `GET /api/artist/{id}/tracks`: the artist's tracks Earshot knows, the most played first. */
export const artistTracksSchema = z
  .object({ items: z.array(catalogueTrackSchema) })
  .meta({ id: 'ArtistTracks' });
export type ArtistTracks = z.infer<typeof artistTracksSchema>;

export const albumSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  picture: z.string().nullable(),
  release_date: z.string().nullable(),
  /** album, single or compilation, when known. */
  album_type: z.string().nullable(),
  track_count: z.number().int().nullable(),
});
export type AlbumSummary = z.infer<typeof albumSummarySchema>;

/** `GET /api/artist/{id}/albums`: the artist's releases, newest first. */
export const artistAlbumsSchema = z
  .object({ items: z.array(albumSummarySchema), notice })
  .meta({ id: 'ArtistAlbums' });
export type ArtistAlbums = z.infer<typeof artistAlbumsSchema>;

/** `GET /api/album/{id}`. */
export const albumDetailSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    picture: z.string().nullable(),
    release_date: z.string().nullable(),
    album_type: z.string().nullable(),
    track_count: z.number().int().nullable(),
    album_artists: z.array(artistCreditSchema),
    /** In disc and track order. */
    tracks: z.array(catalogueTrackSchema),
    listening: viewerListeningSchema.nullable(),
    notice,
  })
  .meta({ id: 'AlbumDetail' });
export type AlbumDetail = z.infer<typeof albumDetailSchema>;

/** `GET /api/track/{id}`. */
export const trackDetailSchema = z
  .object({
    track: trackSummary,
    /** Earshot users who like this song (any of its versions). */
    total_likes: z.number().int(),
    album_artists: z.array(artistCreditSchema),
    /** Songs the same people play around the same time, from Earshot's listening data. */
    similar_tracks: z.array(trackSummary),
    /** "Other Versions": the other Spotify tracks of the same song. */
    other_versions: z.array(trackSummary),
    /** Null for visitors. */
    liked: z.boolean().nullable(),
    listening: viewerListeningSchema.nullable(),
  })
  .meta({ id: 'TrackDetail' });
export type TrackDetail = z.infer<typeof trackDetailSchema>;

export const playlistOwnerSchema = z.object({
  /** The owner's Spotify user id. */
  id: z.string(),
  /** Their Earshot username, when they use Earshot (the owner link goes to their profile). */
  username: z.string().nullable(),
  name: z.string(),
});

const playlistFields = {
  id: z.string(),
  name: z.string(),
  picture: z.string().nullable(),
  description: z.string().nullable(),
  owner: playlistOwnerSchema,
  /** Null when Spotify does not say. */
  is_public: z.boolean().nullable(),
  is_collaborative: z.boolean(),
  track_count: z.number().int(),
  /** When its first track was added: the closest to a creation date Spotify tells. */
  added_at: z.string().nullable(),
};

export const playlistSummarySchema = z.object(playlistFields).meta({ id: 'PlaylistSummary' });
export type PlaylistSummary = z.infer<typeof playlistSummarySchema>;

/** `GET /api/spotify/playlists`: the viewer's playlists, in their Spotify library's order. */
export const playlistListSchema = z
  .object({ items: z.array(playlistSummarySchema), total: z.number().int() })
  .meta({ id: 'PlaylistList' });
export type PlaylistList = z.infer<typeof playlistListSchema>;

export const playlistTrackSchema = catalogueTrackSchema.extend({
  added_at: z.string().nullable(),
});
export type PlaylistTrack = z.infer<typeof playlistTrackSchema>;

/** `GET /api/playlist/{id}`; 403 "This playlist is private" to all but owner and collaborators. */
export const playlistDetailSchema = z
  .object({
    ...playlistFields,
    /** Whether the viewer owns it (the empty playlist's message differs). */
    is_owner: z.boolean(),
    tracks: z.array(playlistTrackSchema),
    notice,
  })
  .meta({ id: 'PlaylistDetail' });
export type PlaylistDetail = z.infer<typeof playlistDetailSchema>;

/** `PUT` and `DELETE /api/spotify/follow/artist/{id}`: the final state. */
export const artistFollowStateSchema = z
  .object({ artist_id: z.string(), is_followed: z.boolean() })
  .meta({ id: 'ArtistFollowState' });
export type ArtistFollowState = z.infer<typeof artistFollowStateSchema>;

/** Spotify ids in paths: base62, 22 characters; anything else is not in the catalogue. */
export const catalogueIdSchema = z.string().regex(/^[0-9A-Za-z]{1,64}$/, 'must be a Spotify id');
