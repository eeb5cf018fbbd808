import { createHash } from 'node:crypto';
import type { SandboxAccount } from '../world/account';
import type {
  Album,
  Artist,
  LocalFile,
  Play,
  PlayContext,
  Playlist,
  PlaylistItem,
  Track,
  World,
} from '../world/model';
import { MARKETS } from './markets';
import { apiUrl, pageOf, type PageLink, type PageWindow } from './paging';

/** Spotify's ImageObject. */
export interface ImageObject {
  url: string;
  height: number | null;
  width: number | null;
}

/** Where the pictures of the catalogue and of users are (absolute URLs, largest first). */
export interface ImageSource {
  artist(artist: Artist): ImageObject[];
  album(album: Album): ImageObject[];
  playlist(playlist: Playlist, atMs: number): ImageObject[];
  user(account: SandboxAccount): ImageObject[];
}

/**
 * What shapes an object: the world it comes from, the time it is asked at, where the sandbox is,
 * and the app's mode. Apps in Extended Quota Mode get every field of the pre-2026-02 description;
 * Development Mode apps get the current description's fields without the deprecated ones.
 */
export interface ObjectContext {
  world: World;
  publicUrl: string;
  images: ImageSource;
  extended: boolean;
  atMs: number;
}

type ItemType = 'artist' | 'album' | 'track' | 'playlist' | 'user';

/** The catalogue's `external_urls`: Spotify's web player, not the sandbox. */
function externalUrls(type: ItemType, id: string) {
  return { spotify: `https://open.spotify.com/${type}/${encodeURIComponent(id)}` };
}

function itemHref(context: ObjectContext, type: ItemType, id: string): string {
  return apiUrl(context.publicUrl, `/${type}s/${encodeURIComponent(id)}`);
}

/** `2024-05-01T18:03:11Z`: Spotify's `added_at`, to the second. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `2024-05-01T18:03:11.482Z`: Spotify's `played_at`, to the millisecond. */
export function isoMillis(ms: number): string {
  return new Date(ms).toISOString();
}

function lookup<T>(found: T | undefined, kind: string, id: string): T {
  if (found === undefined) throw new Error(`spotify-sandbox: the world has no ${kind} "${id}"`);
  return found;
}

export function simplifiedArtistObject(context: ObjectContext, artistId: string) {
  const artist = lookup(context.world.artist(artistId), 'artist', artistId);
  return {
    external_urls: externalUrls('artist', artist.id),
    href: itemHref(context, 'artist', artist.id),
    id: artist.id,
    name: artist.name,
    type: 'artist' as const,
    uri: `spotify:artist:${artist.id}`,
  };
}

/** ArtistObject; `genres`, `popularity` and `followers` only in Extended Quota Mode. */
export function artistObject(context: ObjectContext, artist: Artist) {
  const extended = context.extended;
  return {
    external_urls: externalUrls('artist', artist.id),
    ...(extended && { followers: { href: null, total: artist.followers } }),
    ...(extended && { genres: [...artist.genres] }),
    href: itemHref(context, 'artist', artist.id),
    id: artist.id,
    images: context.images.artist(artist),
    name: artist.name,
    ...(extended && { popularity: artist.popularity }),
    type: 'artist' as const,
    uri: `spotify:artist:${artist.id}`,
  };
}

/** How an album relates to the artist whose discography lists it. */
export type AlbumGroup = 'album' | 'single' | 'compilation' | 'appears_on';

/**
 * SimplifiedAlbumObject; `available_markets` (and, in an artist's discography, `album_group`)
 * only in Extended Quota Mode.
 */
export function simplifiedAlbumObject(context: ObjectContext, album: Album, group?: AlbumGroup) {
  const extended = context.extended;
  return {
    ...(extended && group !== undefined && { album_group: group }),
    album_type: album.albumType,
    artists: album.artistIds.map((id) => simplifiedArtistObject(context, id)),
    ...(extended && { available_markets: MARKETS }),
    external_urls: externalUrls('album', album.id),
    href: itemHref(context, 'album', album.id),
    id: album.id,
    images: context.images.album(album),
    name: album.name,
    release_date: album.releaseDate,
    release_date_precision: album.releaseDatePrecision,
    total_tracks: album.trackIds.length,
    type: 'album' as const,
    uri: `spotify:album:${album.id}`,
  };
}

/** How many tracks an AlbumObject embeds, as Spotify does. */
export const ALBUM_EMBEDDED_TRACKS = 50;

/** The link to a page of an album's tracks. */
export function albumTracksLink(context: ObjectContext, album: Album): PageLink {
  return (offset, limit) =>
    apiUrl(context.publicUrl, `/albums/${album.id}/tracks`, [
      ['offset', offset],
      ['limit', limit],
    ]);
}

/** A page of an album's tracks (SimplifiedTrackObjects). */
export function albumTracksPage(context: ObjectContext, album: Album, window: PageWindow) {
  return pageOf(albumTracksLink(context, album), window, album.trackIds, (id) =>
    simplifiedTrackObject(context, lookup(context.world.track(id), 'track', id)),
  );
}

/** AlbumObject; `available_markets`, `genres`, `label` and `popularity` only in Extended Quota Mode. */
export function albumObject(context: ObjectContext, album: Album) {
  const extended = context.extended;
  return {
    album_type: album.albumType,
    artists: album.artistIds.map((id) => simplifiedArtistObject(context, id)),
    ...(extended && { available_markets: MARKETS }),
    copyrights: album.copyrights.map(({ text, type }) => ({ text, type })),
    external_ids: { upc: album.upc },
    external_urls: externalUrls('album', album.id),
    // Spotify has long answered an empty list here: albums carry no genres of their own.
    ...(extended && { genres: [] as string[] }),
    href: itemHref(context, 'album', album.id),
    id: album.id,
    images: context.images.album(album),
    ...(extended && { label: album.label }),
    name: album.name,
    ...(extended && { popularity: album.popularity }),
    release_date: album.releaseDate,
    release_date_precision: album.releaseDatePrecision,
    total_tracks: album.trackIds.length,
    tracks: albumTracksPage(context, album, { offset: 0, limit: ALBUM_EMBEDDED_TRACKS }),
    type: 'album' as const,
    uri: `spotify:album:${album.id}`,
  };
}

/** SimplifiedTrackObject (an album's tracks); `available_markets`, `preview_url` only extended. */
export function simplifiedTrackObject(context: ObjectContext, track: Track) {
  const extended = context.extended;
  return {
    artists: track.artistIds.map((id) => simplifiedArtistObject(context, id)),
    ...(extended && { available_markets: MARKETS }),
    disc_number: track.discNumber,
    duration_ms: track.durationMs,
    explicit: track.explicit,
    external_urls: externalUrls('track', track.id),
    href: itemHref(context, 'track', track.id),
    id: track.id,
    is_local: false,
    name: track.name,
    ...(extended && { preview_url: null }),
    track_number: track.trackNumber,
    type: 'track' as const,
    uri: `spotify:track:${track.id}`,
  };
}

/**
 * TrackObject; `available_markets`, `popularity` and `preview_url` (null, as Spotify now answers
 * for nearly every track) only in Extended Quota Mode. `linked_from` is absent in both modes: the
 * sandbox never relinks a track.
 */
export function trackObject(context: ObjectContext, track: Track) {
  const extended = context.extended;
  const album = lookup(context.world.album(track.albumId), 'album', track.albumId);
  return {
    album: simplifiedAlbumObject(context, album),
    artists: track.artistIds.map((id) => simplifiedArtistObject(context, id)),
    ...(extended && { available_markets: MARKETS }),
    disc_number: track.discNumber,
    duration_ms: track.durationMs,
    explicit: track.explicit,
    external_ids: { isrc: track.isrc },
    external_urls: externalUrls('track', track.id),
    href: itemHref(context, 'track', track.id),
    id: track.id,
    is_local: false,
    name: track.name,
    ...(extended && { popularity: track.popularity }),
    ...(extended && { preview_url: null }),
    track_number: track.trackNumber,
    type: 'track' as const,
    uri: `spotify:track:${track.id}`,
  };
}

export function trackObjectById(context: ObjectContext, trackId: string) {
  return trackObject(context, lookup(context.world.track(trackId), 'track', trackId));
}

/** PlaylistUserObject: who owns a playlist or added an item. */
function playlistUserObject(context: ObjectContext, userId: string) {
  return {
    external_urls: externalUrls('user', userId),
    href: itemHref(context, 'user', userId),
    id: userId,
    type: 'user' as const,
    uri: `spotify:user:${userId}`,
  };
}

function playlistOwnerObject(context: ObjectContext, ownerId: string) {
  return {
    display_name: context.world.account(ownerId)?.displayName ?? null,
    ...playlistUserObject(context, ownerId),
  };
}

/** PublicUserObject (`/users/{id}`); `followers` only in Extended Quota Mode. */
export function publicUserObject(context: ObjectContext, account: SandboxAccount) {
  return {
    display_name: account.displayName,
    external_urls: externalUrls('user', account.id),
    ...(context.extended && { followers: { href: null, total: account.followers } }),
    href: itemHref(context, 'user', account.id),
    id: account.id,
    images: context.images.user(account),
    type: 'user' as const,
    uri: `spotify:user:${account.id}`,
  };
}

/**
 * A playlist's version at a time, as Spotify's opaque `snapshot_id`: changes whenever an item is
 * added, stable otherwise.
 */
export function snapshotId(playlist: Playlist, items: readonly PlaylistItem[]): string {
  const last = items.at(-1)?.addedAt ?? playlist.createdAt;
  const digest = createHash('sha256')
    .update(`${playlist.id}:${items.length}:${last}`)
    .digest('hex')
    .slice(0, 32);
  return Buffer.from(`${Math.floor(last / 1000)},${digest}`).toString('base64');
}

/** PlaylistTrackObject: the item as `item` (current) and, in Extended Quota Mode, `track`. */
export function playlistTrackObject(context: ObjectContext, item: PlaylistItem) {
  const track = trackObjectById(context, item.trackId);
  return {
    added_at: isoSeconds(item.addedAt),
    added_by: playlistUserObject(context, item.addedBy),
    is_local: false,
    item: track,
    primary_color: null,
    ...(context.extended && { track }),
    video_thumbnail: { url: null },
  };
}

/** Which of a playlist's item listings a link points at: `/items`, or the older `/tracks`. */
export type PlaylistItemsPath = 'items' | 'tracks';

export function playlistItemsLink(
  context: ObjectContext,
  playlist: Playlist,
  path: PlaylistItemsPath,
): PageLink {
  return (offset, limit) =>
    apiUrl(context.publicUrl, `/playlists/${playlist.id}/${path}`, [
      ['offset', offset],
      ['limit', limit],
    ]);
}

export function playlistItemsPage(
  context: ObjectContext,
  playlist: Playlist,
  path: PlaylistItemsPath,
  window: PageWindow,
) {
  const items = context.world.playlistItems(playlist.id, context.atMs);
  return pageOf(playlistItemsLink(context, playlist, path), window, items, (item) =>
    playlistTrackObject(context, item),
  );
}

/** How many items a PlaylistObject embeds, as Spotify does. */
export const PLAYLIST_EMBEDDED_ITEMS = 100;

/**
 * PlaylistObject. Its items come as `items` and, in Extended Quota Mode, also as `tracks`;
 * `withItems: false` leaves them out (Development Mode, for a playlist the user neither owns nor
 * collaborates on).
 */
export function playlistObject(
  context: ObjectContext,
  playlist: Playlist,
  { withItems }: { withItems: boolean },
) {
  const items = context.world.playlistItems(playlist.id, context.atMs);
  const embedded = (path: PlaylistItemsPath) =>
    playlistItemsPage(context, playlist, path, { offset: 0, limit: PLAYLIST_EMBEDDED_ITEMS });
  return {
    collaborative: playlist.collaborative,
    description: playlist.description,
    external_urls: externalUrls('playlist', playlist.id),
    followers: { href: null, total: playlist.followers },
    href: itemHref(context, 'playlist', playlist.id),
    id: playlist.id,
    images: context.images.playlist(playlist, context.atMs),
    ...(withItems && { items: embedded('items') }),
    name: playlist.name,
    owner: playlistOwnerObject(context, playlist.ownerId),
    primary_color: null,
    public: playlist.public,
    snapshot_id: snapshotId(playlist, items),
    ...(withItems && context.extended && { tracks: embedded('tracks') }),
    type: 'playlist' as const,
    uri: `spotify:playlist:${playlist.id}`,
  };
}

/** SimplifiedPlaylistObject: `items` `{href, total}`, and `tracks` too in Extended Quota Mode. */
export function simplifiedPlaylistObject(context: ObjectContext, playlist: Playlist) {
  const items = context.world.playlistItems(playlist.id, context.atMs);
  const ref = (path: PlaylistItemsPath) => ({
    href: apiUrl(context.publicUrl, `/playlists/${playlist.id}/${path}`),
    total: items.length,
  });
  return {
    collaborative: playlist.collaborative,
    description: playlist.description,
    external_urls: externalUrls('playlist', playlist.id),
    href: itemHref(context, 'playlist', playlist.id),
    id: playlist.id,
    images: context.images.playlist(playlist, context.atMs),
    items: ref('items'),
    name: playlist.name,
    owner: playlistOwnerObject(context, playlist.ownerId),
    primary_color: null,
    public: playlist.public,
    snapshot_id: snapshotId(playlist, items),
    ...(context.extended && { tracks: ref('tracks') }),
    type: 'playlist' as const,
    uri: `spotify:playlist:${playlist.id}`,
  };
}

/** ContextObject of a play: the album, playlist or artist it was played from. */
export function contextObject(context: ObjectContext, playContext: PlayContext) {
  const id = playContext.uri.split(':').at(-1) ?? '';
  return {
    type: playContext.type,
    href: itemHref(context, playContext.type, id),
    external_urls: externalUrls(playContext.type, id),
    uri: playContext.uri,
  };
}

/**
 * The TrackObject of a local file as Spotify answers it: the tags' names, `is_local: true`, and no
 * id, href or link anywhere (nor popularity, markets or ISRC: Spotify's catalogue does not know it).
 */
export function localTrackObject(context: ObjectContext, file: LocalFile, uri: string) {
  const extended = context.extended;
  return {
    album: {
      album_type: null,
      artists: [],
      ...(extended && { available_markets: [] }),
      external_urls: {},
      href: null,
      id: null,
      images: [],
      name: file.album,
      release_date: null,
      release_date_precision: null,
      type: 'album' as const,
      uri: null,
    },
    artists: [
      { external_urls: {}, href: null, id: null, name: file.artist, type: 'artist', uri: null },
    ],
    ...(extended && { available_markets: [] }),
    disc_number: 0,
    duration_ms: file.durationMs,
    explicit: false,
    external_ids: {},
    external_urls: {},
    href: null,
    id: null,
    is_local: true,
    name: file.title,
    ...(extended && { popularity: 0 }),
    ...(extended && { preview_url: null }),
    track_number: 0,
    type: 'track' as const,
    uri,
  };
}

/** PlayHistoryObject (recently-played). */
export function playHistoryObject(context: ObjectContext, play: Play) {
  return {
    track: play.localFile
      ? localTrackObject(context, play.localFile, play.trackId)
      : trackObjectById(context, play.trackId),
    played_at: isoMillis(play.playedAt),
    context: play.context === null ? null : contextObject(context, play.context),
  };
}
