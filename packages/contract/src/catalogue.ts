import { z } from 'zod';
import { userSummary } from './user';
import { trackSummary } from './track';

/*
 * The public catalogue pages: artist, album, track and playlist, and the viewer's playlists
 * (docs/product.md, "Artist page", "Track page", "Album page", "Playlist page", "Playlists").
 * Personal fields are null for visitors who are not logged in.
 */

/** A friend of the viewer who plays the item, with how often. */
export const friendListener = userSummary.extend({ play_count: z.number().int() });
export type FriendListener = z.infer<typeof friendListener>;

/** "Who do I know who listens to this?": null for visitors. */
export const viewerListening = z
  .object({
    /** The viewer's own plays. */
    play_count: z.number().int(),
    /** Friends who played it, the most plays first. */
    friends: z.array(friendListener),
  })
  .meta({ id: 'ViewerListening' });
export type ViewerListening = z.infer<typeof viewerListening>;

/**
 * Set when Spotify could not fill in what Earshot lacks (rate limit, outage, Development Mode
 * limits): the answer then holds what Earshot had stored, and this says why it may be incomplete.
 */
const notice = z.string().nullable();

export const artistCredit = z.object({
  id: z.string(),
  name: z.string(),
  picture: z.string().nullable(),
});
export type ArtistCredit = z.infer<typeof artistCredit>;

/** `GET /api/artist/{id}`. Genres, followers and popularity are unknown for some apps. */
export const artistDetail = z
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
    listening: viewerListening.nullable(),
  })
  .meta({ id: 'ArtistDetail' });
export type ArtistDetail = z.infer<typeof artistDetail>;

/** A track in a list of the catalogue pages, with the viewer's like and plays. */
export const catalogueTrack = z
  .object({
    track: trackSummary,
    /** Null for visitors. */
    liked: z.boolean().nullable(),
    /** The viewer's plays; null for visitors. */
    play_count: z.number().int().nullable(),
  })
  .meta({ id: 'CatalogueTrack' });
export type CatalogueTrack = z.infer<typeof catalogueTrack>;

/** `GET /api/artist/{id}/tracks`: the artist's tracks Earshot knows, the most played first. */
export const artistTracks = z
  .object({ items: z.array(catalogueTrack) })
  .meta({ id: 'ArtistTracks' });
export type ArtistTracks = z.infer<typeof artistTracks>;

export const albumSummary = z.object({
  id: z.string(),
  name: z.string(),
  picture: z.string().nullable(),
  release_date: z.string().nullable(),
  /** album, single or compilation, when known. */
  album_type: z.string().nullable(),
  track_count: z.number().int().nullable(),
});
export type AlbumSummary = z.infer<typeof albumSummary>;

/** `GET /api/artist/{id}/albums`: the artist's releases, newest first. */
export const artistAlbums = z
  .object({ items: z.array(albumSummary), notice })
  .meta({ id: 'ArtistAlbums' });
export type ArtistAlbums = z.infer<typeof artistAlbums>;

/** `GET /api/album/{id}`. */
export const albumDetail = albumSummary
  .extend({
    album_artists: z.array(artistCredit),
    /** In disc and track order. */
    tracks: z.array(catalogueTrack),
    listening: viewerListening.nullable(),
    notice,
  })
  .meta({ id: 'AlbumDetail' });
export type AlbumDetail = z.infer<typeof albumDetail>;

/** `GET /api/track/{id}`. */
export const trackDetail = z
  .object({
    track: trackSummary,
    /** Earshot users who like this song (any of its versions). */
    total_likes: z.number().int(),
    album_artists: z.array(artistCredit),
    /** Songs the same people play around the same time, from Earshot's listening data. */
    similar_tracks: z.array(trackSummary),
    /** "Other Versions": the other Spotify tracks of the same song. */
    other_versions: z.array(trackSummary),
    /** Null for visitors. */
    liked: z.boolean().nullable(),
    listening: viewerListening.nullable(),
  })
  .meta({ id: 'TrackDetail' });
export type TrackDetail = z.infer<typeof trackDetail>;

export const playlistOwner = z.object({
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
  owner: playlistOwner,
  /** Null when Spotify does not say. */
  is_public: z.boolean().nullable(),
  is_collaborative: z.boolean(),
  track_count: z.number().int(),
  /** When its first track was added: the closest to a creation date Spotify tells. */
  added_at: z.string().nullable(),
};

export const playlistSummary = z.object(playlistFields).meta({ id: 'PlaylistSummary' });
export type PlaylistSummary = z.infer<typeof playlistSummary>;

/** `GET /api/spotify/playlists`: the viewer's playlists, in their Spotify library's order. */
export const playlistList = z
  .object({ items: z.array(playlistSummary), total: z.number().int() })
  .meta({ id: 'PlaylistList' });
export type PlaylistList = z.infer<typeof playlistList>;

export const playlistTrack = catalogueTrack.extend({
  added_at: z.string().nullable(),
});
export type PlaylistTrack = z.infer<typeof playlistTrack>;

/** `GET /api/playlist/{id}`; 403 "This playlist is private" to all but owner and collaborators. */
export const playlistDetail = z
  .object({
    ...playlistFields,
    /** Whether the viewer owns it (the empty playlist's message differs). */
    is_owner: z.boolean(),
    tracks: z.array(playlistTrack),
    notice,
  })
  .meta({ id: 'PlaylistDetail' });
export type PlaylistDetail = z.infer<typeof playlistDetail>;

/** `PUT` and `DELETE /api/spotify/follow/artist/{id}`: the final state. */
export const artistFollowState = z
  .object({ artist_id: z.string(), is_followed: z.boolean() })
  .meta({ id: 'ArtistFollowState' });
export type ArtistFollowState = z.infer<typeof artistFollowState>;

/** Spotify ids in paths: base62, 22 characters; anything else is not in the catalogue. */
export const catalogueId = z.string().regex(/^[0-9A-Za-z]{1,64}$/, 'must be a Spotify id');
