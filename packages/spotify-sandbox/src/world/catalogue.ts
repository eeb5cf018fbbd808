/**
 * The catalogue's entry: generateCatalogue runs the stages in catalogue/ (artists, release plan,
 * builder) in the order the seed's random draws depend on, then indexes the result; the helpers
 * below read those indexes for the listening model.
 */
import { labelName } from './names';
import type { Album, Artist, Track, WorldSizes } from './model';
import { cumulative, pickCumulative, Random } from './random';
import { assignGenres, draftArtists, followersFor } from './catalogue/artists';
import { CatalogueBuilder } from './catalogue/builder';
import type { ArtistDraft } from './catalogue/drafts';
import { IdMaker } from './catalogue/ids';
import { allocateReleases, fitTrackCount } from './catalogue/release-plan';

/**
 * The generated catalogue: artists, their releases and the tracks on them, plus numeric indexes the
 * listening model draws from. Releases span 1966–2025; the world's clock may be anywhere after.
 */
export interface Catalogue {
  artists: Artist[];
  albums: Album[];
  tracks: Track[];
  artistIndex: Map<string, number>;
  albumIndex: Map<string, number>;
  trackIndex: Map<string, number>;
  isrcIndex: Map<string, number[]>;
  /** Per artist: its genre family (index into GENRE_FAMILIES). */
  artistFamily: Uint8Array;
  /** Per track: its album's index and release time, its main artist's index. */
  trackAlbum: Int32Array;
  trackReleasedAt: Float64Array;
  trackArtist: Int32Array;
  /** Per album: its main artist's index, and the index of its first track (an album's are adjacent). */
  albumArtist: Int32Array;
  albumFirstTrack: Int32Array;
  /** Artist indexes per genre. */
  genreArtists: Map<string, number[]>;
  /**
   * Per artist: the tracks it leads, sorted by release time, with cumulative popularity weights,
   * so "a track of this artist released by then" is a prefix and a binary search.
   */
  artistTracks: Int32Array[];
  artistTrackWeights: Float64Array[];
  artistTrackReleases: Float64Array[];
}

const CATALOGUE_SALT = 0x6361746c;

export function generateCatalogue(seed: number, sizes: WorldSizes): Catalogue {
  if (sizes.artists < 1 || sizes.albums < sizes.artists || sizes.tracks < sizes.albums) {
    throw new RangeError(
      'spotify-sandbox: a world needs at least one artist, an album per artist and a track per album',
    );
  }
  const random = Random.derive(seed, CATALOGUE_SALT);
  const ids = new IdMaker(random);
  const labels = uniqueNames(Math.max(24, Math.round(sizes.artists / 12)), () => labelName(random));

  const drafts = draftArtists(random, sizes.artists, labels);
  allocateReleases(random, drafts, sizes.albums);
  fitTrackCount(random, drafts, sizes.tracks);

  const artists: Artist[] = drafts.map((draft) => ({
    id: ids.next(),
    name: draft.name,
    genres: [],
    followers: followersFor(random, draft.popularity),
    popularity: draft.popularity,
    albumIds: [],
  }));
  assignGenres(random, drafts, artists);

  const builder = new CatalogueBuilder(random, ids, drafts, artists);
  // New recordings first, then the releases that reuse them (a lead single comes out before its
  // album but carries one of the album's recordings).
  for (const draft of drafts) builder.buildNewRecordings(draft);
  for (const draft of drafts) builder.buildReissues(draft);
  return indexCatalogue(drafts, artists, builder.albums, builder.tracks);
}

function uniqueNames(count: number, make: () => string): string[] {
  const names = new Set<string>();
  for (let attempt = 0; names.size < count && attempt < count * 20; attempt++) names.add(make());
  return [...names];
}

/**
 * The numeric indexes of the built catalogue, from which the listening model draws without
 * searching: positions by id, per-track and per-album columns, and per-artist release-ordered tracks.
 */
function indexCatalogue(
  drafts: readonly ArtistDraft[],
  artists: Artist[],
  albums: Album[],
  tracks: Track[],
): Catalogue {
  const artistIndex = new Map(artists.map((artist, index) => [artist.id, index]));
  const albumIndex = new Map(albums.map((album, index) => [album.id, index]));
  const trackIndex = new Map(tracks.map((track, index) => [track.id, index]));
  const isrcIndex = new Map<string, number[]>();
  const trackAlbum = new Int32Array(tracks.length);
  const trackReleasedAt = new Float64Array(tracks.length);
  const trackArtist = new Int32Array(tracks.length);
  const byArtist: number[][] = artists.map(() => []);
  tracks.forEach((track, index) => {
    const album = albumIndex.get(track.albumId) ?? 0;
    trackAlbum[index] = album;
    trackReleasedAt[index] = (albums[album] as Album).releasedAt;
    const artist = artistIndex.get(track.artistIds[0] as string) ?? 0;
    trackArtist[index] = artist;
    byArtist[artist]?.push(index);
    const shared = isrcIndex.get(track.isrc);
    if (shared) shared.push(index);
    else isrcIndex.set(track.isrc, [index]);
  });
  for (const artist of artists) {
    (artist.albumIds as string[]).sort(
      (a, b) =>
        (albums[albumIndex.get(a) ?? 0]?.releasedAt ?? 0) -
        (albums[albumIndex.get(b) ?? 0]?.releasedAt ?? 0),
    );
  }
  const albumArtist = new Int32Array(albums.length);
  const albumFirstTrack = new Int32Array(albums.length);
  albums.forEach((album, index) => {
    albumArtist[index] = artistIndex.get(album.artistIds[0] as string) ?? 0;
    albumFirstTrack[index] = trackIndex.get(album.trackIds[0] as string) ?? 0;
  });
  const artistTracks: Int32Array[] = [];
  const artistTrackWeights: Float64Array[] = [];
  const artistTrackReleases: Float64Array[] = [];
  for (const list of byArtist) {
    list.sort((a, b) => (trackReleasedAt[a] ?? 0) - (trackReleasedAt[b] ?? 0));
    artistTracks.push(Int32Array.from(list));
    artistTrackWeights.push(
      cumulative(list.map((track) => popularityWeight((tracks[track] as Track).popularity))),
    );
    artistTrackReleases.push(Float64Array.from(list, (track) => trackReleasedAt[track] ?? 0));
  }
  const genreArtists = new Map<string, number[]>();
  artists.forEach((artist, index) => {
    for (const genre of artist.genres) {
      const list = genreArtists.get(genre);
      if (list) list.push(index);
      else genreArtists.set(genre, [index]);
    }
  });
  return {
    artists,
    albums,
    tracks,
    artistIndex,
    albumIndex,
    trackIndex,
    isrcIndex,
    artistFamily: Uint8Array.from(drafts, (draft) => draft.familyIndex),
    trackAlbum,
    trackReleasedAt,
    trackArtist,
    albumArtist,
    albumFirstTrack,
    genreArtists,
    artistTracks,
    artistTrackWeights,
    artistTrackReleases,
  };
}

/** A track the artist leads, released by `atMs`, popular ones more often; -1 if none yet. */
export function pickArtistTrack(
  catalogue: Catalogue,
  random: Random,
  artist: number,
  atMs: number,
): number {
  const releases = catalogue.artistTrackReleases[artist];
  const weights = catalogue.artistTrackWeights[artist];
  const tracks = catalogue.artistTracks[artist];
  if (!releases || !weights || !tracks) return -1;
  const available = countUpTo(releases, atMs);
  if (available === 0) return -1;
  return tracks[pickCumulative(random, weights, available)] ?? -1;
}

/** How many of the ascending `values` are at most `limit`. */
export function countUpTo(values: ArrayLike<number>, limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] ?? 0) <= limit) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How much more a popular track is played than an obscure one. */
export function popularityWeight(popularity: number): number {
  return Math.exp(popularity / 14);
}
