import type { Writable } from 'node:stream';
import { AVATAR_SIZES, avatarPath } from '../images/avatar';
import type { Account, World } from '../world/model';
import { hash32, hashString, Random } from '../world/random';
import type { ExportSummary, ExportVariant } from './extended-history';
import {
  JACKSON_INDENTED,
  isoDate,
  jsonValue,
  minuteTime,
  prettyJson,
  printRecord,
  type PrettyValue,
} from './json';
import { followedShows, streamingRows, type StreamRow } from './rows';
import { SpokenCatalogue } from './spoken';
import { checkRowsPerFile, exportArchive, SplitJsonSeries } from './zip-writer';

/**
 * The Account data export ("Download your data" without the extended history): the last year of
 * streaming, names only, plus the account's small JSON files.
 *
 * - `current` (exports since late 2023): `Spotify Account Data/StreamingHistory_music_<N>.json`,
 *   `StreamingHistory_podcast_<N>.json` and, when there are any, `StreamingHistory_audiobook_<N>.json`;
 * - `legacy`: `MyData/StreamingHistory<N>.json`, music and podcasts in one series (a podcast row
 *   puts the show in `artistName` and the episode in `trackName`), no audiobooks.
 *
 * Both hold `Userdata.json`, `Identity.json`, `Identifiers.json`, `Follow.json`,
 * `YourLibrary.json` and `Playlist1.json`, with the fields of real exports filled from the world
 * (birth date and gender, which the world does not have, are derived from the account id). Files
 * the world has nothing for (search queries, payments, inferences, …) are left out.
 */

export const ACCOUNT_DATA_FOLDER = 'Spotify Account Data';
export const LEGACY_ACCOUNT_DATA_FOLDER = 'MyData';
/** Account-data exports from this date on split music and podcasts into separate files. */
export const SPLIT_HISTORY_FROM = Date.UTC(2023, 9, 1);
/** The streaming history files hold 10,000 rows each. */
export const ACCOUNT_DATA_ROWS_PER_FILE = 10_000;
/** The export covers the year before its date. */
export const ACCOUNT_DATA_SPAN_MS = 365 * 86_400_000;

export interface AccountDataOptions {
  /** The export's date. */
  asOfMs: number;
  /** Default: the layout of `asOfMs` (legacy before `SPLIT_HISTORY_FROM`). */
  variant?: ExportVariant;
  /** The sandbox's public URL, for the profile pictures in `Identity.json`; "" without. */
  publicUrl?: string;
  /** zlib level, 0–9; default 6. */
  compressionLevel?: number;
  /** Default `ACCOUNT_DATA_ROWS_PER_FILE`. */
  rowsPerFile?: number;
}

const MUSIC_RECORD = JACKSON_INDENTED.record(['endTime', 'artistName', 'trackName', 'msPlayed']);
const PODCAST_RECORD = JACKSON_INDENTED.record([
  'endTime',
  'podcastName',
  'episodeName',
  'msPlayed',
]);
const AUDIOBOOK_RECORD = JACKSON_INDENTED.record([
  'endTime',
  'audiobookName',
  'chapterName',
  'authorName',
  'msPlayed',
]);

type HistorySeries = 'music' | 'podcast' | 'audiobook';

/** One row of the account data history, and the series (file) it belongs to. */
function historyRow(row: StreamRow, legacy: boolean): { series: HistorySeries; text: string } {
  const endTime = jsonValue(minuteTime(row.ts));
  const msPlayed = String(row.msPlayed);
  const { content } = row;
  if (content.kind === 'track') {
    const { track } = content;
    return {
      series: 'music',
      text: printRecord(MUSIC_RECORD, [
        endTime,
        jsonValue(track.artist),
        jsonValue(track.name),
        msPlayed,
      ]),
    };
  }
  if (content.kind === 'episode') {
    const { episode } = content;
    const show = jsonValue(episode.show.name);
    const name = jsonValue(episode.name);
    return legacy
      ? { series: 'music', text: printRecord(MUSIC_RECORD, [endTime, show, name, msPlayed]) }
      : { series: 'podcast', text: printRecord(PODCAST_RECORD, [endTime, show, name, msPlayed]) };
  }
  const { chapter } = content;
  return {
    series: 'audiobook',
    text: printRecord(AUDIOBOOK_RECORD, [
      endTime,
      jsonValue(chapter.book.title),
      jsonValue(chapter.title),
      jsonValue(chapter.book.author),
      msPlayed,
    ]),
  };
}

function userdata(account: Account): PrettyValue {
  const random = new Random(hash32(hashString(account.id), 0x75736572));
  const born = Date.UTC(random.int(1962, 2006), random.int(0, 11), random.int(1, 28));
  return {
    username: account.id,
    email: account.email,
    country: account.country,
    createdFromFacebook: false,
    facebookUid: null,
    birthdate: isoDate(born),
    gender: random.weighted(['female', 'male', 'neutral'], [0.48, 0.48, 0.04]),
    postalCode: null,
    mobileNumber: null,
    mobileOperator: null,
    mobileBrand: null,
    creationTime: isoDate(account.createdAt),
  };
}

function identity(account: Account, publicUrl: string): PrettyValue {
  const [small, large] = AVATAR_SIZES.map((size) =>
    publicUrl ? `${publicUrl}/${avatarPath(account.id, size)}` : '',
  );
  return {
    displayName: account.displayName,
    firstName: '',
    lastName: '',
    imageUrl: small ?? '',
    largeImageUrl: large ?? '',
    tasteMaker: false,
    verified: false,
  };
}

function trackSummary(world: World, trackId: string) {
  const track = world.track(trackId);
  const artistId = track?.artistIds[0];
  return {
    artist: (artistId && world.artist(artistId)?.name) || '',
    album: (track && world.album(track.albumId)?.name) ?? '',
    track: track?.name ?? '',
    uri: `spotify:track:${trackId}`,
  };
}

function byName<T extends { name: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function yourLibrary(
  world: World,
  account: Account,
  spoken: SpokenCatalogue,
  asOfMs: number,
): PrettyValue {
  const artists = world.followedArtists(account.id, asOfMs).flatMap(({ artistId }) => {
    const artist = world.artist(artistId);
    return artist ? [{ name: artist.name, uri: `spotify:artist:${artist.id}` }] : [];
  });
  const shows = followedShows(world, account, spoken).map((show) => ({
    name: show.name,
    publisher: show.publisher,
    uri: `spotify:show:${show.id}`,
  }));
  return {
    tracks: world
      .savedTracks(account.id, asOfMs)
      .map(({ trackId }) => trackSummary(world, trackId)),
    albums: [],
    shows: byName(shows),
    episodes: [],
    bannedTracks: [],
    artists: byName(artists),
    bannedArtists: [],
    other: [],
  };
}

function playlists(world: World, account: Account, asOfMs: number): PrettyValue {
  const owned = world.playlists.filter(
    (playlist) => playlist.ownerId === account.id && playlist.createdAt <= asOfMs,
  );
  return {
    playlists: owned.map((playlist) => {
      const items = world.playlistItems(playlist.id, asOfMs);
      const modifiedAt = items.reduce(
        (latest, item) => Math.max(latest, item.addedAt),
        playlist.createdAt,
      );
      return {
        name: playlist.name,
        lastModifiedDate: isoDate(modifiedAt),
        items: items.map((item) => {
          const { artist, album, track, uri } = trackSummary(world, item.trackId);
          return {
            track: { trackName: track, artistName: artist, albumName: album, trackUri: uri },
            episode: null,
            audiobook: null,
            localTrack: null,
            addedDate: isoDate(item.addedAt),
          };
        }),
        description: playlist.description || null,
        numberOfFollowers: playlist.followers,
      };
    }),
  };
}

export function accountDataVariantAt(asOfMs: number): ExportVariant {
  return asOfMs < SPLIT_HISTORY_FROM ? 'legacy' : 'current';
}

/** Streams an account's Account data ZIP to `destination`; resolves once it is written. */
export async function writeAccountDataZip(
  world: World,
  accountId: string,
  options: AccountDataOptions,
  destination: Writable,
): Promise<ExportSummary> {
  const account = world.account(accountId);
  if (!account) throw new Error(`spotify-sandbox: no account "${accountId}"`);
  const variant = options.variant ?? accountDataVariantAt(options.asOfMs);
  const legacy = variant === 'legacy';
  const rowsPerFile = checkRowsPerFile(options.rowsPerFile ?? ACCOUNT_DATA_ROWS_PER_FILE);
  const folder = legacy ? LEGACY_ACCOUNT_DATA_FOLDER : ACCOUNT_DATA_FOLDER;
  const zip = exportArchive(destination, options.asOfMs, options.compressionLevel);
  zip.directory(`${folder}/`);

  const spoken = new SpokenCatalogue(world.seed);
  const smallFiles: [string, PrettyValue][] = [
    ['Userdata.json', userdata(account)],
    ['Identity.json', identity(account, options.publicUrl ?? '')],
    ['Identifiers.json', { identifierType: 'email', identifierValue: account.email }],
    [
      'Follow.json',
      { followerCount: account.followers, followingUsersCount: 0, dismissingUsersCount: 0 },
    ],
    ['YourLibrary.json', yourLibrary(world, account, spoken, options.asOfMs)],
    ['Playlist1.json', playlists(world, account, options.asOfMs)],
  ];
  for (const [name, value] of smallFiles) {
    await zip.add(`${folder}/${name}`, [Buffer.from(prettyJson(value), 'utf8')]);
  }

  const series = (kind: HistorySeries) =>
    new SplitJsonSeries(zip, JACKSON_INDENTED, rowsPerFile, ({ index }) =>
      legacy
        ? `${folder}/StreamingHistory${index}.json`
        : `${folder}/StreamingHistory_${kind}_${index}.json`,
    );
  const music = series('music');
  const histories: Record<HistorySeries, SplitJsonSeries> = legacy
    ? { music, podcast: music, audiobook: music }
    : { music, podcast: series('podcast'), audiobook: series('audiobook') };
  let rows = 0;
  for (const row of streamingRows(world, account, spoken, {
    untilMs: options.asOfMs,
    sinceMs: options.asOfMs - ACCOUNT_DATA_SPAN_MS,
    audiobooks: !legacy,
  })) {
    const { series: kind, text } = historyRow(row, legacy);
    const written = histories[kind].push(text, row.ts);
    if (written) await written;
    rows++;
  }
  const empty = { ts: options.asOfMs };
  const files = [...(await music.finish(empty))];
  if (!legacy) {
    files.push(...(await histories.podcast.finish(empty)));
    files.push(...(await histories.audiobook.finish()));
  }
  await zip.end();
  return { variant, files, rows };
}
