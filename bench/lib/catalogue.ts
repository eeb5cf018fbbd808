import { titleKey } from '../../apps/server/src/services/song-identity';
import { trackSearchText } from '../../apps/server/src/services/text';
import { insertColumns, type Queryable } from './postgres';
import type { Random } from './random';
import { FIRST_NAMES, GENRES, LAST_NAMES, TITLE_WORDS, VERSION_NOTES } from './words';

/** The helper table that maps a popularity rank (0 = most played) to a track. */
export const TRACK_RANKS = 'bench_track_ranks';

export interface CatalogueSummary {
  artists: number;
  albums: number;
  tracks: number;
  /** Tracks that are another version (remaster, live, …) of a song: they share its uid. */
  versions: number;
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const IMAGE = 'https://i.scdn.co/image/ab67616d0000b273';
const hex = (random: Random, length: number) =>
  Array.from({ length }, () => '0123456789abcdef'[random.int(0, 15)]).join('');

function artistName(random: Random): string {
  const roll = random.next();
  if (roll < 0.4) return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
  if (roll < 0.55) return `The ${capitalise(random.pickSkewed(TITLE_WORDS, 40))}s`;
  if (roll < 0.85) {
    return `${capitalise(random.pickSkewed(TITLE_WORDS, 40))} ${capitalise(random.pickSkewed(TITLE_WORDS, 40))}`;
  }
  return capitalise(random.pickSkewed(TITLE_WORDS, 40));
}

function phrase(random: Random, maxWords: number): string {
  const count = random.int(1, maxWords);
  return Array.from({ length: count }, () => random.pickSkewed(TITLE_WORDS))
    .map((word, i) => (i === 0 || random.chance(0.7) ? capitalise(word) : word))
    .join(' ');
}

function releaseDate(random: Random): { date: string; precision: string } {
  // Skewed to recent years, back to 1960.
  const year = 2026 - Math.floor(66 * random.next() ** 2);
  const month = String(random.int(1, 12)).padStart(2, '0');
  const day = String(random.int(1, 28)).padStart(2, '0');
  const roll = random.next();
  if (roll < 0.8) return { date: `${year}-${month}-${day}`, precision: 'day' };
  if (roll < 0.95) return { date: String(year), precision: 'year' };
  return { date: `${year}-${month}`, precision: 'month' };
}

/**
 * Fills the catalogue (artists with genres, albums with release dates and credits, tracks with
 * their credits) with about `trackCount` tracks, as the sync would store them: `uid`,
 * `title_key` and `search_text` come from Earshot's own functions. Also writes the UNLOGGED
 * helper table `bench_track_ranks (rank, id, album_id, duration_ms)` in a random popularity
 * order, which generators join to pick tracks by rank; drop it when done.
 */
export async function generateCatalogue(
  db: Queryable,
  random: Random,
  trackCount: number,
  /** Counts to aim at instead of about 7.7 tracks per release and 2.5 releases per artist. */
  shape?: { artists: number; albums: number },
): Promise<CatalogueSummary> {
  // A third of releases are singles, the rest 6–16 tracks: about 7.7 tracks per release.
  const artistCount = shape?.artists ?? Math.max(1, Math.round(trackCount / 7.7 / 2.5));
  // With a shape, the releases that are not singles are as long as its album count needs.
  const longRelease = shape
    ? Math.max(2, Math.round(((trackCount / shape.albums - 1 / 3) * 3) / 2))
    : 11;

  const artists = { id: [] as string[], name: [] as string[], genres: [] as (string | null)[] };
  const artistExtra = { popularity: [] as number[], followers: [] as number[] };
  const artistPicture: string[] = [];
  for (let i = 0; i < artistCount; i++) {
    artists.id.push(random.spotifyId());
    artists.name.push(artistName(random));
    const genreCount = random.chance(0.1) ? 0 : random.int(1, 3);
    const genres = [
      ...new Set(Array.from({ length: genreCount }, () => random.pickSkewed(GENRES, 5))),
    ];
    // Ragged arrays cannot be bound as one text[][]: an array literal per artist.
    artists.genres.push(
      genreCount === 0 ? null : `{${genres.map((g) => `"${g.replace(/"/g, '\\"')}"`).join(',')}}`,
    );
    artistExtra.popularity.push(random.int(5, 95));
    artistExtra.followers.push(Math.floor(10 ** (2 + 5 * random.next())));
    artistPicture.push(`${IMAGE}${hex(random, 24)}`);
  }

  const albums = {
    id: [] as string[],
    name: [] as string[],
    type: [] as string[],
    date: [] as string[],
    precision: [] as string[],
    total: [] as number[],
    picture: [] as string[],
    artist: [] as string[],
  };
  const tracks = {
    id: [] as string[],
    uid: [] as string[],
    name: [] as string[],
    album: [] as string[],
    duration: [] as number[],
    popularity: [] as number[],
    explicit: [] as boolean[],
    isrc: [] as string[],
    key: [] as string[],
    search: [] as string[],
    number: [] as number[],
  };
  const credits = { track: [] as string[], position: [] as number[], artist: [] as string[] };
  let versions = 0;
  while (tracks.id.length < trackCount) {
    const artistIndex = random.int(0, artistCount - 1);
    const artistId = artists.id[artistIndex]!;
    const artist = artists.name[artistIndex]!;
    const albumId = random.spotifyId();
    const albumName = random.chance(0.1) ? artist : phrase(random, 3);
    const left = trackCount - tracks.id.length;
    const size = Math.min(
      left,
      random.int(1, 3) === 1 ? 1 : random.int(Math.max(2, longRelease - 5), longRelease + 5),
    );
    const { date, precision } = releaseDate(random);
    albums.id.push(albumId);
    albums.name.push(albumName);
    albums.type.push(size === 1 ? 'single' : random.chance(0.1) ? 'compilation' : 'album');
    albums.date.push(date);
    albums.precision.push(precision);
    albums.total.push(size);
    albums.picture.push(`${IMAGE}${hex(random, 24)}`);
    albums.artist.push(artistId);
    for (let t = 0; t < size; t++) {
      const id = random.spotifyId();
      // A remaster or live version of an earlier track of the same artist keeps its song uid.
      const original =
        tracks.id.length > 0 && random.chance(0.05)
          ? random.int(Math.max(0, tracks.id.length - 2000), tracks.id.length - 1)
          : undefined;
      const baseName =
        original === undefined ? phrase(random, 3) : tracks.name[original]!.split(' - ')[0]!;
      const name = original === undefined ? baseName : `${baseName}${random.pick(VERSION_NOTES)}`;
      const creditedIndexes = [artistIndex];
      if (random.chance(0.15)) creditedIndexes.push(random.int(0, artistCount - 1));
      const credited = creditedIndexes.map((i) => artists.id[i]!);
      const names = creditedIndexes.map((i) => artists.name[i]!);
      tracks.id.push(id);
      tracks.uid.push(original === undefined ? id : tracks.uid[original]!);
      if (original !== undefined) versions++;
      tracks.name.push(name);
      tracks.album.push(albumId);
      tracks.duration.push(random.int(95_000, 420_000));
      tracks.popularity.push(random.int(0, 100));
      tracks.explicit.push(random.chance(0.12));
      tracks.isrc.push(
        `US${hex(random, 3).toUpperCase()}${random.int(60, 99)}${String(random.int(0, 99_999)).padStart(5, '0')}`,
      );
      tracks.key.push(titleKey(name, names[0]!));
      tracks.search.push(trackSearchText(name, albumName, names));
      tracks.number.push(t + 1);
      credited.forEach((cid, position) => {
        credits.track.push(id);
        credits.position.push(position);
        credits.artist.push(cid);
      });
    }
  }

  await insertColumns(
    db,
    'artists',
    {
      id: 'text',
      name: 'text',
      genres: 'text[]',
      popularity: 'int',
      followers: 'bigint',
      picture: 'text',
      enriched_at: 'timestamptz',
    },
    {
      id: artists.id,
      name: artists.name,
      genres: artists.genres,
      popularity: artistExtra.popularity,
      followers: artistExtra.followers,
      picture: artistPicture,
      enriched_at: artists.id.map(() => new Date()),
    },
  );
  await insertColumns(
    db,
    'albums',
    {
      id: 'text',
      name: 'text',
      album_type: 'text',
      release_date: 'text',
      release_date_precision: 'text',
      total_tracks: 'int',
      picture: 'text',
      enriched_at: 'timestamptz',
    },
    {
      id: albums.id,
      name: albums.name,
      album_type: albums.type,
      release_date: albums.date,
      release_date_precision: albums.precision,
      total_tracks: albums.total,
      picture: albums.picture,
      enriched_at: albums.id.map(() => new Date()),
    },
  );
  await insertColumns(
    db,
    'album_artists',
    { album_id: 'text', position: 'int', artist_id: 'text' },
    { album_id: albums.id, position: albums.id.map(() => 0), artist_id: albums.artist },
  );
  await insertColumns(
    db,
    'tracks',
    {
      id: 'text',
      uid: 'text',
      name: 'text',
      album_id: 'text',
      duration_ms: 'int',
      popularity: 'int',
      explicit: 'bool',
      isrc: 'text',
      title_key: 'text',
      search_text: 'text',
      track_number: 'int',
      disc_number: 'int',
      enriched_at: 'timestamptz',
    },
    {
      id: tracks.id,
      uid: tracks.uid,
      name: tracks.name,
      album_id: tracks.album,
      duration_ms: tracks.duration,
      popularity: tracks.popularity,
      explicit: tracks.explicit,
      isrc: tracks.isrc,
      title_key: tracks.key,
      search_text: tracks.search,
      track_number: tracks.number,
      disc_number: tracks.id.map(() => 1),
      enriched_at: tracks.id.map(() => new Date()),
    },
  );
  await insertColumns(
    db,
    'track_artists',
    { track_id: 'text', position: 'int', artist_id: 'text' },
    { track_id: credits.track, position: credits.position, artist_id: credits.artist },
  );

  const order = random.shuffle(tracks.id.map((_, i) => i));
  await db.query(`DROP TABLE IF EXISTS ${TRACK_RANKS}`);
  await db.query(
    `CREATE UNLOGGED TABLE ${TRACK_RANKS} (rank int PRIMARY KEY, id text NOT NULL, album_id text NOT NULL, duration_ms int NOT NULL)`,
  );
  await insertColumns(
    db,
    TRACK_RANKS,
    { rank: 'int', id: 'text', album_id: 'text', duration_ms: 'int' },
    {
      rank: order.map((_, rank) => rank),
      id: order.map((i) => tracks.id[i]!),
      album_id: order.map((i) => tracks.album[i]!),
      duration_ms: order.map((i) => tracks.duration[i]!),
    },
  );
  return { artists: artistCount, albums: albums.id.length, tracks: tracks.id.length, versions };
}
