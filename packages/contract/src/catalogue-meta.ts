import { formatCount } from './english';
import { PRODUCT_NAME } from './site';

/**
 * The head metadata of the artist, album, track and playlist pages (docs/product.md §2, Global
 * behaviour), built alike by the web app's PageMeta and by the server for crawlers and link
 * previews. `origin` is the site's address, for the structured data's `url`.
 */
export interface CataloguePageMeta {
  /** The page's own title; the document's is "{title} - Earshot". */
  title: string;
  description: string;
  canonicalPath: string;
  /** The square picture of the social card; null: Earshot's large card. */
  image: string | null;
  noindex: boolean;
  structuredData: Record<string, unknown>;
}

export type CatalogueEntity = 'Track' | 'Artist' | 'Album' | 'Playlist';

/** "Track Not Found" and the others (docs/product.md, "Not-found pages"). */
export function catalogueNotFoundTitle(entity: CatalogueEntity): string {
  return `${entity} Not Found`;
}

/** What a private playlist's page says to those it is not for (docs/product.md §8). */
export const PRIVATE_PLAYLIST_TEXT = 'This playlist is private';

/** Genres an artist's page description names (docs/product.md §9). */
export const ARTIST_DESCRIPTION_GENRES = 2;

/** "12 tracks", "1 track". */
export function formatTrackCount(count: number): string {
  return count === 1 ? '1 track' : `${formatCount(count)} tracks`;
}

/** The year of a Spotify release date ("1974", "1974-05" or "1974-05-17"). */
export function releaseYear(releaseDate: string | null): string | null {
  return releaseDate ? releaseDate.slice(0, 4) : null;
}

/** Artist names for a text: "A, B and C" reads best in titles and descriptions. */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

interface Named {
  name: string;
}

const SCHEMA = 'https://schema.org';
const groups = (artists: readonly Named[]) =>
  artists.map((artist) => ({ '@type': 'MusicGroup', name: artist.name }));

export type ArtistTabName = 'tracks' | 'likes' | 'albums';

export function artistPageMeta(
  artist: { id: string; name: string; picture: string | null; genres: readonly string[] },
  tab: ArtistTabName,
  origin: string,
): CataloguePageMeta {
  const path = `/artist/${encodeURIComponent(artist.id)}`;
  const tabTitle = tab === 'tracks' ? '' : tab === 'likes' ? ' - Likes' : ' - Albums';
  const genres = artist.genres.slice(0, ARTIST_DESCRIPTION_GENRES);
  const kind = genres.length > 0 ? `${genres.join(' and ')} artist` : 'artist';
  return {
    title: `${artist.name}${tabTitle}`,
    description: `${artist.name}, ${kind}: tracks, albums and who listens on ${PRODUCT_NAME}.`,
    canonicalPath: tab === 'tracks' ? path : `${path}/${tab}`,
    image: artist.picture,
    noindex: false,
    structuredData: {
      '@context': SCHEMA,
      '@type': 'MusicGroup',
      name: artist.name,
      url: `${origin}${path}`,
      ...(artist.genres.length > 0 ? { genre: [...artist.genres] } : {}),
      ...(artist.picture ? { image: artist.picture } : {}),
    },
  };
}

export function albumPageMeta(
  album: {
    id: string;
    name: string;
    picture: string | null;
    release_date: string | null;
    album_artists: readonly Named[];
    /** The tracks the page lists. */
    trackCount: number;
  },
  origin: string,
): CataloguePageMeta {
  const path = `/album/${encodeURIComponent(album.id)}`;
  const artists = joinNames(album.album_artists.map((artist) => artist.name));
  const year = releaseYear(album.release_date);
  return {
    title: artists ? `${album.name} by ${artists}` : album.name,
    description: `${album.name}${artists ? `, by ${artists}` : ''}${year ? ` (${year})` : ''}: its tracks and who plays them on ${PRODUCT_NAME}.`,
    canonicalPath: path,
    image: album.picture,
    noindex: false,
    structuredData: {
      '@context': SCHEMA,
      '@type': 'MusicAlbum',
      name: album.name,
      url: `${origin}${path}`,
      byArtist: groups(album.album_artists),
      numTracks: album.trackCount,
      ...(album.picture ? { image: album.picture } : {}),
    },
  };
}

export function trackPageMeta(
  track: {
    id: string;
    title: string;
    artists: readonly Named[];
    album: { name: string; picture: string | null } | null;
  },
  origin: string,
): CataloguePageMeta {
  const path = `/track/${encodeURIComponent(track.id)}`;
  const artists = joinNames(track.artists.map((artist) => artist.name));
  const album = track.album ? ` from ${track.album.name}` : '';
  return {
    title: `${track.title} by ${artists}`,
    description: `${track.title}, a song by ${artists}${album}: who plays it on ${PRODUCT_NAME}.`,
    canonicalPath: path,
    image: track.album?.picture ?? null,
    noindex: false,
    structuredData: {
      '@context': SCHEMA,
      '@type': 'MusicRecording',
      name: track.title,
      url: `${origin}${path}`,
      byArtist: groups(track.artists),
      ...(track.album ? { inAlbum: { '@type': 'MusicAlbum', name: track.album.name } } : {}),
    },
  };
}

/** A playlist everyone may see; the others are kept out of search engines. */
export function playlistPageMeta(
  playlist: {
    id: string;
    name: string;
    description: string | null;
    picture: string | null;
    owner: Named;
    track_count: number;
    is_public: boolean | null;
  },
  origin: string,
): CataloguePageMeta {
  const path = `/playlist/${encodeURIComponent(playlist.id)}`;
  return {
    title: playlist.name,
    description:
      playlist.description ||
      `${playlist.name}, a playlist by ${playlist.owner.name}: ${formatTrackCount(playlist.track_count)} on ${PRODUCT_NAME}.`,
    canonicalPath: path,
    image: playlist.picture,
    noindex: playlist.is_public !== true,
    structuredData: {
      '@context': SCHEMA,
      '@type': 'MusicPlaylist',
      name: playlist.name,
      url: `${origin}${path}`,
      numTracks: playlist.track_count,
    },
  };
}
