import { GENRE_FAMILIES, type ActStyle, type GenreFamily, type NameFlavour } from './genres';
import type {
  Album,
  AlbumKind,
  Artist,
  Copyright,
  ReleaseDatePrecision,
  Track,
  WorldSizes,
} from './model';
import {
  albumTitle,
  artistName,
  classicalAlbumTitle,
  classicalPiece,
  compilationTitle,
  labelName,
  liveAlbumTitle,
  songTitle,
} from './names';
import { cumulative, hashString, pickCumulative, Random } from './random';

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

export const FIRST_RELEASE_YEAR = 1966;
export const LAST_RELEASE_YEAR = 2025;
const DAY_MS = 86_400_000;
const CATALOGUE_SALT = 0x6361746c;

type ReleaseRole = 'original' | 'lead-single' | 'remaster' | 'compilation' | 'live';

interface ReleaseDraft {
  role: ReleaseRole;
  kind: AlbumKind;
  date: number;
  precision: ReleaseDatePrecision;
  /** Tracks of new recordings (originals, lead singles' B-sides, remasters' bonus tracks). */
  count: number;
  /** The album a lead single or remaster is taken from. */
  source?: ReleaseDraft;
  partner?: number;
  album?: Album;
  /** New recordings made for this release, with their popularity. */
  recordings: Track[];
  remastered?: boolean;
}

interface ArtistDraft {
  index: number;
  family: GenreFamily;
  familyIndex: number;
  flavour: NameFlavour;
  act: ActStyle;
  name: string;
  debut: number;
  end: number;
  popularity: number;
  country: string;
  labels: string[];
  explicitness: number;
  releases: ReleaseDraft[];
}

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
  return builder.finish();
}

/** Ids that never repeat within a world. */
class IdMaker {
  private readonly used = new Set<string>();
  constructor(private readonly random: Random) {}
  next(): string {
    for (;;) {
      const id = this.random.base62Id();
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }
}

function uniqueNames(count: number, make: () => string): string[] {
  const names = new Set<string>();
  for (let attempt = 0; names.size < count && attempt < count * 20; attempt++) names.add(make());
  return [...names];
}

function draftArtists(random: Random, count: number, labels: readonly string[]): ArtistDraft[] {
  const familyWeights = GENRE_FAMILIES.map((family) => family.weight);
  const familyIndexes = GENRE_FAMILIES.map((_, index) => index);
  const names = new Set<string>();
  const drafts: ArtistDraft[] = [];
  for (let index = 0; index < count; index++) {
    const familyIndex = random.weighted(familyIndexes, familyWeights);
    const family = GENRE_FAMILIES[familyIndex] as GenreFamily;
    const [, from, to] = random.pick(family.genres);
    const first = Math.max(FIRST_RELEASE_YEAR, from);
    const last = Math.min(LAST_RELEASE_YEAR, to);
    // More artists debut recently, as in a streaming catalogue.
    const debut = Math.min(last, first + Math.floor(Math.sqrt(random.next()) * (last - first + 1)));
    const end = random.chance(0.55)
      ? LAST_RELEASE_YEAR
      : Math.min(LAST_RELEASE_YEAR, debut + random.int(1, 25));
    const flavour = random.pick(family.flavours);
    const act = random.pick(family.acts);
    let name = artistName(random, flavour, act);
    for (let attempt = 0; names.has(name) && attempt < 20; attempt++) {
      name = artistName(random, flavour, act);
    }
    if (names.has(name)) name = `${name} ${random.pick(['II', 'Collective', 'Project', 'Band'])}`;
    names.add(name);
    const popularity = clamp(
      Math.round(random.normal(38, 16) + (random.chance(0.05) ? 35 : 0)),
      1,
      97,
    );
    drafts.push({
      index,
      family,
      familyIndex,
      flavour,
      act,
      name,
      debut,
      end,
      popularity,
      country: random.pick(family.countries),
      labels: random.sample(labels, random.int(1, 2)),
      explicitness: clamp(family.explicitRate * random.between(0.2, 1.8), 0, 0.95),
      releases: [],
    });
  }
  return drafts;
}

function followersFor(random: Random, popularity: number): number {
  return Math.round(10 ** (1.2 + popularity * 0.065 + random.normal(0, 0.35)));
}

/** 1–3 genres: one from the artist's era first, then neighbours of the same family. */
function assignGenres(random: Random, drafts: readonly ArtistDraft[], artists: Artist[]): void {
  drafts.forEach((draft, index) => {
    const living = draft.family.genres.filter(
      ([, from, to]) => from <= draft.end && to >= draft.debut,
    );
    const pool = living.length > 0 ? living : draft.family.genres;
    const count = random.weighted([1, 2, 3], [3, 4, 3]);
    const genres = random.sample(
      pool.map(([name]) => name),
      count,
    );
    (artists[index] as Artist).genres = genres;
  });
}

/** Every artist gets a release; the rest go to artists with long careers and big audiences. */
function allocateReleases(random: Random, drafts: ArtistDraft[], albums: number): void {
  const counts = new Int32Array(drafts.length).fill(1);
  const weights = cumulative(
    drafts.map((draft) => 0.4 + (draft.end - draft.debut) / 6 + draft.popularity / 25),
  );
  for (let extra = albums - drafts.length; extra > 0; extra--) {
    const index = pickCumulative(random, weights);
    counts[index] = (counts[index] ?? 0) + 1;
  }
  drafts.forEach((draft, index) => planReleases(random, draft, counts[index] ?? 1, drafts));
}

function planReleases(
  random: Random,
  draft: ArtistDraft,
  count: number,
  drafts: readonly ArtistDraft[],
): void {
  const career = draft.end - draft.debut;
  const compilations = count >= 5 && career >= 8 && random.chance(0.55) ? (count >= 12 ? 2 : 1) : 0;
  const remasters = count - compilations >= 4 && draft.debut <= 2008 && random.chance(0.4) ? 1 : 0;
  const originals = count - compilations - remasters;

  const start = Date.UTC(draft.debut, 0, 1);
  const stop = Date.UTC(draft.end, 11, 31);
  const kinds: ('album' | 'ep' | 'single')[] = [];
  for (let index = 0; index < originals; index++) {
    kinds.push(
      random.weighted(
        ['album', 'ep', 'single'] as const,
        index === 0 ? [65, 15, 20] : [50, 15, 35],
      ),
    );
  }
  if ((compilations > 0 || remasters > 0) && !kinds.includes('album')) kinds[0] = 'album';

  const dates = kinds.map(() => start + random.next() * (stop - start)).sort((a, b) => a - b);
  const albums: ReleaseDraft[] = [];
  const releases: ReleaseDraft[] = [];
  kinds.forEach((kind, index) => {
    const date = dates[index] as number;
    const release: ReleaseDraft = {
      role: 'original',
      kind,
      date,
      precision: precisionFor(random, date),
      count: originalTrackCount(random, draft.family, kind),
      recordings: [],
    };
    if (kind === 'album') {
      albums.push(release);
      if (releases.length > 1 && random.chance(0.06)) release.role = 'live';
      if (random.chance(0.015)) {
        const partners = drafts.filter(
          (other) => other.familyIndex === draft.familyIndex && other.index !== draft.index,
        );
        if (partners.length > 0) release.partner = random.pick(partners).index;
      }
    }
    releases.push(release);
  });

  // Some singles announce an album: the same recording, weeks before.
  for (const release of releases) {
    if (release.kind !== 'single' || albums.length === 0 || !random.chance(0.6)) continue;
    const album = random.pick(albums);
    if (album.role === 'live') continue;
    release.role = 'lead-single';
    release.source = album;
    release.date = Math.max(
      Date.UTC(FIRST_RELEASE_YEAR, 0, 1),
      album.date - random.int(20, 120) * DAY_MS,
    );
    release.precision = album.precision === 'year' ? 'year' : 'day';
    release.count = random.chance(0.2) ? 1 : 0;
  }

  for (let index = 0; index < remasters; index++) {
    const candidates = albums.filter(
      (album) => album.role === 'original' && !album.remastered && yearOf(album.date) <= 2008,
    );
    const source = candidates.length > 0 ? random.pick(candidates) : undefined;
    if (!source) {
      releases.push(extraAlbum(random, draft, start, stop));
      continue;
    }
    source.remastered = true;
    const year = random.int(Math.max(yearOf(source.date) + 10, 1995), LAST_RELEASE_YEAR);
    const date = Date.UTC(year, random.int(0, 11), random.int(1, 28));
    releases.push({
      role: 'remaster',
      kind: 'album',
      date,
      precision: 'day',
      count: random.chance(0.3) ? random.int(1, 4) : 0,
      source,
      recordings: [],
    });
  }

  for (let index = 0; index < compilations; index++) {
    // A compilation needs something to compile: it comes out at least a year after the first
    // original release.
    const first = Math.min(
      ...releases.filter((release) => release.role === 'original').map((release) => release.date),
    );
    if (yearOf(first) >= LAST_RELEASE_YEAR) {
      releases.push(extraAlbum(random, draft, start, stop));
      continue;
    }
    const year = random.int(yearOf(first) + 1, LAST_RELEASE_YEAR);
    const date = Date.UTC(year, random.int(0, 11), random.int(1, 28));
    releases.push({
      role: 'compilation',
      kind: 'compilation',
      date,
      precision: precisionFor(random, date),
      count: random.int(10, 20),
      recordings: [],
    });
  }
  releases.sort((a, b) => a.date - b.date);
  draft.releases = releases;
}

function extraAlbum(random: Random, draft: ArtistDraft, start: number, stop: number): ReleaseDraft {
  const date = start + random.next() * (stop - start);
  return {
    role: 'original',
    kind: 'album',
    date,
    precision: precisionFor(random, date),
    count: originalTrackCount(random, draft.family, 'album'),
    recordings: [],
  };
}

function originalTrackCount(random: Random, family: GenreFamily, kind: 'album' | 'ep' | 'single') {
  if (kind === 'single') return random.chance(0.25) ? 2 : 1;
  if (kind === 'ep') return random.int(4, 6);
  return clamp(Math.round(random.normal(family.albumTracks, 2.5)), 6, 24);
}

/** Old releases often carry only a year on Spotify; recent ones a full date. */
function precisionFor(random: Random, date: number): ReleaseDatePrecision {
  const year = yearOf(date);
  if (year < 1980) return random.weighted(['year', 'month', 'day'] as const, [55, 10, 35]);
  if (year < 2000) return random.weighted(['year', 'month', 'day'] as const, [25, 10, 65]);
  return random.weighted(['year', 'day'] as const, [4, 96]);
}

/**
 * Grows or shrinks original albums and EPs until the world has exactly the tracks asked for (or as
 * close as their size limits allow). Compilations are first capped to what their sources hold at
 * the smallest, so resizing a source never changes them.
 */
function fitTrackCount(random: Random, drafts: ArtistDraft[], target: number): void {
  for (const draft of drafts) {
    for (const release of draft.releases) {
      if (release.role === 'compilation') {
        release.count = Math.min(release.count, smallestSources(draft, release));
      }
    }
  }
  const adjustable = drafts.flatMap((draft) =>
    draft.releases.filter((release) => sizeLimits(release) !== undefined),
  );
  let missing = target - countTracks(drafts);
  let stalled = 0;
  while (missing !== 0 && adjustable.length > 0 && stalled < adjustable.length * 4) {
    const release = random.pick(adjustable);
    const [low, high] = sizeLimits(release) ?? [0, 0];
    const step = release.remastered ? 2 : 1;
    if (missing > 0 && release.count < high && step <= missing) {
      release.count++;
      missing -= step;
      stalled = 0;
    } else if (missing < 0 && release.count > low && step <= -missing) {
      release.count--;
      missing += step;
      stalled = 0;
    } else {
      stalled++;
    }
  }
}

/** How small and big a resizable release may get; undefined for the others. */
function sizeLimits(release: ReleaseDraft): readonly [number, number] | undefined {
  if (release.role === 'live') return [5, 40];
  if (release.role !== 'original') return undefined;
  if (release.kind === 'album') return [5, 40];
  if (release.kind === 'ep') return [3, 8];
  return undefined;
}

function countTracks(drafts: readonly ArtistDraft[]): number {
  let total = 0;
  for (const draft of drafts) {
    for (const release of draft.releases) total += tracksOn(release);
  }
  return total;
}

/** Tracks on a release once built (new recordings plus those shared with other releases). */
function tracksOn(release: ReleaseDraft): number {
  switch (release.role) {
    case 'original':
    case 'live':
    case 'compilation':
      return release.count;
    case 'lead-single':
      return 1 + release.count;
    case 'remaster':
      return (release.source?.count ?? 0) + release.count;
  }
}

/** Recordings a compilation can draw from however its sources are resized. */
function smallestSources(draft: ArtistDraft, compilation: ReleaseDraft): number {
  let available = 0;
  for (const release of draft.releases) {
    if (
      release.date < compilation.date &&
      (release.role === 'original' || release.role === 'live')
    ) {
      available += sizeLimits(release)?.[0] ?? release.count;
    }
  }
  return available;
}

function yearOf(ms: number): number {
  return new Date(ms).getUTCFullYear();
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** Turns the release plans into albums and tracks, in release order per artist. */
class CatalogueBuilder {
  private readonly albums: Album[] = [];
  private readonly tracks: Track[] = [];
  private readonly isrcSerials = new Map<string, number>();
  private readonly upcs = new Set<string>();
  private readonly familyArtists: number[][];
  private readonly artistById: Map<string, Artist>;

  constructor(
    private readonly random: Random,
    private readonly ids: IdMaker,
    private readonly drafts: readonly ArtistDraft[],
    private readonly artists: Artist[],
  ) {
    this.familyArtists = GENRE_FAMILIES.map(() => []);
    for (const draft of drafts) this.familyArtists[draft.familyIndex]?.push(draft.index);
    this.artistById = new Map(artists.map((artist) => [artist.id, artist]));
  }

  buildNewRecordings(draft: ArtistDraft): void {
    for (const release of draft.releases) {
      if (release.role === 'original') this.buildOriginal(draft, release);
      else if (release.role === 'live') this.buildLive(draft, release);
    }
  }

  buildReissues(draft: ArtistDraft): void {
    for (const release of draft.releases) {
      if (release.role === 'lead-single') this.buildLeadSingle(draft, release);
      else if (release.role === 'remaster') this.buildRemaster(draft, release);
      else if (release.role === 'compilation') this.buildCompilation(draft, release);
    }
  }

  finish(): Catalogue {
    const { artists, albums, tracks } = this;
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
      artistFamily: Uint8Array.from(this.drafts, (draft) => draft.familyIndex),
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

  private buildOriginal(draft: ArtistDraft, release: ReleaseDraft): void {
    const { random } = this;
    const classical = draft.family.titles === 'classical';
    const titles = classical
      ? classicalTitles(random, release.count)
      : this.songTitles(draft, release.count);
    const name =
      release.kind === 'single'
        ? (titles[0] as string)
        : classical
          ? classicalAlbumTitle(random, draft.name.split(' ').slice(-1)[0] ?? draft.name)
          : release.kind === 'album' && draft.releases[0] === release && random.chance(0.12)
            ? draft.name
            : albumTitle(random, draft.family.titles === 'spanish' ? 'spanish' : 'english');
    const album = this.newAlbum(draft, release, name);
    for (const title of titles) this.addRecording(draft, release, album, title);
    this.finishAlbum(album);
  }

  private buildLive(draft: ArtistDraft, release: ReleaseDraft): void {
    const { random } = this;
    const album = this.newAlbum(draft, release, liveAlbumTitle(random, draft.flavour));
    const earlier = draft.releases
      .filter((other) => other.date < release.date && other.role === 'original')
      .flatMap((other) => other.recordings);
    for (let index = 0; index < release.count; index++) {
      const title =
        earlier.length > 0
          ? `${baseTitle(random.pick(earlier).name)} - Live`
          : (this.songTitles(draft, 1)[0] as string);
      this.addRecording(draft, release, album, title);
    }
    this.finishAlbum(album);
  }

  private buildLeadSingle(draft: ArtistDraft, release: ReleaseDraft): void {
    const lead = this.random.pick(sourceOf(release).recordings.slice(0, 5));
    const album = this.newAlbum(draft, release, lead.name);
    this.addCopy(album, lead, lead.name, Math.min(100, lead.popularity + this.random.int(-12, 2)));
    for (let index = 0; index < release.count; index++) {
      this.addRecording(draft, release, album, this.songTitles(draft, 1)[0] as string);
    }
    this.finishAlbum(album);
  }

  private buildRemaster(draft: ArtistDraft, release: ReleaseDraft): void {
    const source = sourceOf(release);
    const year = yearOf(release.date);
    const deluxe = this.random.chance(0.3);
    const album = this.newAlbum(
      draft,
      release,
      `${source.album?.name ?? ''} (${deluxe ? 'Deluxe Edition' : `${year} Remaster`})`,
    );
    for (const recording of source.recordings) {
      // The remaster is what people stream now; the original release fades.
      const popularity = clamp(recording.popularity + this.random.int(0, 12), 0, 100);
      recording.popularity = clamp(recording.popularity - this.random.int(5, 15), 0, 100);
      this.addCopy(
        album,
        recording,
        deluxe ? recording.name : `${recording.name} - Remastered ${year}`,
        popularity,
      );
    }
    for (let index = 0; index < release.count; index++) {
      const original = this.random.pick(source.recordings);
      const take = this.random.pick([
        'Demo',
        'Alternate Take',
        'Live',
        'Early Version',
        'Acoustic',
      ]);
      this.addRecording(draft, release, album, `${baseTitle(original.name)} - ${take}`);
    }
    this.finishAlbum(album);
  }

  private buildCompilation(draft: ArtistDraft, release: ReleaseDraft): void {
    const { random } = this;
    const earlier = draft.releases.filter(
      (other) => other.date < release.date && (other.role === 'original' || other.role === 'live'),
    );
    const pool = earlier.flatMap((other) => other.recordings);
    const chosen = pool
      .slice()
      .sort((a, b) => b.popularity - a.popularity)
      .slice(0, release.count)
      .sort((a, b) => pool.indexOf(a) - pool.indexOf(b));
    const firstYear = yearOf(earlier[0]?.date ?? release.date);
    const lastYear = yearOf(earlier[earlier.length - 1]?.date ?? release.date);
    const album = this.newAlbum(
      draft,
      release,
      compilationTitle(random, draft.name, firstYear, lastYear),
    );
    const remastered = random.chance(0.25) ? yearOf(release.date) : 0;
    for (const recording of chosen) {
      const name = remastered ? `${recording.name} - ${remastered} Remaster` : recording.name;
      this.addCopy(album, recording, name, clamp(recording.popularity - random.int(3, 15), 0, 100));
    }
    this.finishAlbum(album);
  }

  private songTitles(draft: ArtistDraft, count: number): string[] {
    const style = draft.family.titles === 'spanish' ? 'spanish' : 'english';
    const titles = new Set<string>();
    for (let attempt = 0; titles.size < count && attempt < count * 10; attempt++) {
      titles.add(songTitle(this.random, style));
    }
    while (titles.size < count)
      titles.add(`${songTitle(this.random, style)} (Part ${titles.size + 1})`);
    return [...titles];
  }

  private newAlbum(draft: ArtistDraft, release: ReleaseDraft, name: string): Album {
    const { random } = this;
    const artistIds = [(this.artists[draft.index] as Artist).id];
    if (release.partner !== undefined) artistIds.push((this.artists[release.partner] as Artist).id);
    const { text, releasedAt } = formatReleaseDate(release.date, release.precision);
    const label = random.pick(draft.labels);
    const year = yearOf(release.date);
    const copyrights: Copyright[] = [
      { text: `© ${year} ${label}`, type: 'C' },
      { text: `℗ ${year} ${label}`, type: 'P' },
    ];
    const album: Album = {
      id: this.ids.next(),
      name,
      kind: release.kind,
      albumType: release.kind === 'ep' ? 'single' : release.kind,
      artistIds,
      releaseDate: text,
      releaseDatePrecision: release.precision,
      releasedAt,
      label,
      upc: this.upc(),
      copyrights,
      popularity: 0,
      trackIds: [],
    };
    release.album = album;
    return album;
  }

  private finishAlbum(album: Album): void {
    const trackIds = album.trackIds as string[];
    const count = trackIds.length;
    const discs = count > 20 ? 2 : 1;
    const perDisc = Math.ceil(count / discs);
    let popularity = 0;
    for (let index = 0; index < count; index++) {
      const track = this.tracks[this.tracks.length - count + index] as Track;
      track.discNumber = 1 + Math.floor(index / perDisc);
      track.trackNumber = 1 + (index % perDisc);
      popularity = Math.max(popularity, track.popularity);
    }
    album.popularity = clamp(popularity - this.random.int(0, 6), 0, 100);
    this.albums.push(album);
    for (const artistId of album.artistIds) {
      (this.artistById.get(artistId)?.albumIds as string[] | undefined)?.push(album.id);
    }
  }

  private addRecording(
    draft: ArtistDraft,
    release: ReleaseDraft,
    album: Album,
    title: string,
  ): void {
    const { random } = this;
    const family = draft.family;
    const [mean, spread] = family.durationSec;
    const seconds = clamp(
      random.normal(mean, spread),
      75,
      family.titles === 'classical' ? 1500 : 900,
    );
    const artistIds = [...album.artistIds];
    let name = title;
    const featureRate =
      { 'hip hop': 0.25, latin: 0.25, african: 0.2, 'r&b': 0.15, pop: 0.12, electronic: 0.15 }[
        family.name
      ] ?? 0.03;
    const peers = this.familyArtists[draft.familyIndex] ?? [];
    if (peers.length > 1 && random.chance(featureRate)) {
      const guest = this.artists[random.pick(peers)] as Artist;
      if (!artistIds.includes(guest.id)) {
        artistIds.push(guest.id);
        if (random.chance(0.5)) name = `${title} (feat. ${guest.name})`;
      }
    }
    const position = album.trackIds.length;
    const popularity = clamp(
      Math.round(
        draft.popularity +
          random.normal(0, 9) -
          position * 0.8 +
          (release.kind === 'single' ? 4 : 0),
      ),
      0,
      100,
    );
    const track: Track = {
      id: this.ids.next(),
      name,
      albumId: album.id,
      artistIds,
      discNumber: 1,
      trackNumber: 1,
      durationMs: Math.round(seconds * 1000) + random.int(0, 999),
      explicit: random.chance(draft.explicitness),
      popularity,
      isrc: this.isrc(draft, release),
    };
    this.tracks.push(track);
    (album.trackIds as string[]).push(track.id);
    release.recordings.push(track);
  }

  private addCopy(album: Album, recording: Track, name: string, popularity: number): void {
    const track: Track = {
      ...recording,
      id: this.ids.next(),
      name,
      albumId: album.id,
      popularity,
    };
    this.tracks.push(track);
    (album.trackIds as string[]).push(track.id);
  }

  /** CC-XXX-YY-NNNNN without dashes: country, registrant (the label's), year, serial. */
  private isrc(draft: ArtistDraft, release: ReleaseDraft): string {
    const label = draft.labels[0] ?? 'label';
    const registrant = registrantCode(label);
    const prefix = `${draft.country}${registrant}${String(yearOf(release.date) % 100).padStart(2, '0')}`;
    const serial = (this.isrcSerials.get(prefix) ?? 0) + 1 + this.random.int(0, 40);
    this.isrcSerials.set(prefix, serial);
    return `${prefix}${String(serial % 100_000).padStart(5, '0')}`;
  }

  private upc(): string {
    for (;;) {
      const body = `${this.random.pick(['0', '1', '8'])}${this.random.chars('0123456789', 10)}`;
      const upc = body + upcCheckDigit(body);
      if (!this.upcs.has(upc)) {
        this.upcs.add(upc);
        return upc;
      }
    }
  }
}

function sourceOf(release: ReleaseDraft): ReleaseDraft {
  if (!release.source?.album)
    throw new Error('spotify-sandbox: a reissue was built before its source');
  return release.source;
}

function classicalTitles(random: Random, count: number): string[] {
  const titles: string[] = [];
  while (titles.length < count) {
    const piece = classicalPiece(random);
    if (piece.movements.length === 0) titles.push(piece.title);
    for (const movement of piece.movements) {
      if (titles.length < count) titles.push(`${piece.title}: ${movement}`);
    }
  }
  return titles;
}

/** A title without a " - Live" or " (feat. …)" style suffix. */
function baseTitle(name: string): string {
  return name.replace(/ \(feat\. .*\)$/, '').replace(/ - .*$/, '');
}

const REGISTRANT_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function registrantCode(label: string): string {
  let hash = hashString(label);
  let code = '';
  for (let index = 0; index < 3; index++) {
    code += REGISTRANT_ALPHABET[hash % (index === 0 ? 26 : 36)];
    hash = Math.floor(hash / 36);
  }
  return code;
}

/** UPC-A check digit of 11 digits. */
export function upcCheckDigit(body: string): string {
  let sum = 0;
  for (let index = 0; index < body.length; index++) {
    sum += Number(body[index]) * (index % 2 === 0 ? 3 : 1);
  }
  return String((10 - (sum % 10)) % 10);
}

function formatReleaseDate(ms: number, precision: ReleaseDatePrecision) {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  const pad = (value: number) => String(value).padStart(2, '0');
  switch (precision) {
    case 'year':
      return { text: String(year), releasedAt: Date.UTC(year, 0, 1) };
    case 'month':
      return { text: `${year}-${pad(month + 1)}`, releasedAt: Date.UTC(year, month, 1) };
    case 'day':
      return {
        text: `${year}-${pad(month + 1)}-${pad(day)}`,
        releasedAt: Date.UTC(year, month, day),
      };
  }
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
