import type { Writable } from 'node:stream';
import type { World } from '../world/model';
import {
  COMPACT,
  JACKSON_ROOT,
  isoSecond,
  jsonRecurring,
  jsonValue,
  printRecord,
  type RecordLayout,
} from './json';
import { readMeFirstPdf } from './pdf';
import { streamingRows, type StreamRow, type TrackLabel } from './rows';
import { SpokenCatalogue } from './spoken';
import { checkRowsPerFile, exportArchive, SplitJsonSeries, yearSpan } from './zip-writer';

/**
 * The Extended Streaming History export, in either of the layouts Spotify has sent:
 *
 * - `current` (exports since late 2023): `Spotify Extended Streaming History/` with
 *   `Streaming_History_Audio_<YYYY>[-<YYYY>][_<N>].json` (music, episodes, chapters),
 *   `Streaming_History_Video_<…>.json` (music videos, video podcasts) and
 *   `ReadMeFirst_ExtendedStreamingHistory.pdf`; the 23 fields of `CURRENT_FIELDS`; Jackson's
 *   `[ {` … `} ]` layout. `_<N>` numbers the files of a series and is left out when the series
 *   has a single file; the years are those of the file's first and last rows.
 * - `legacy` (earlier exports): `MyData/endsong_<N>.json` and the PDF; `LEGACY_FIELDS` (with
 *   `username`, `ip_addr_decrypted`, `user_agent_decrypted`, without audiobooks, so no chapter
 *   rows); videos are ordinary rows; one line of compact JSON per file.
 *
 * The layout is the export's, not the rows': a 2021 play in a 2026 export has the current fields
 * (with the long platform string its client sent then). So the variant follows the export's date
 * unless asked for. Legacy exports hold plays up to at least late September 2023 (the shared
 * sample has one from February 2023, a public export one from 21 September 2023), so exports from
 * `CURRENT_LAYOUT_FROM` on get the current layout. The whitespace of the legacy files is from
 * memory of real ones (no sample shows it); the current files' is that of real 2026 exports.
 */

export type ExportVariant = 'current' | 'legacy';

/** Exports made from this date on have the current layout; earlier ones the legacy one. */
export const CURRENT_LAYOUT_FROM = Date.UTC(2023, 9, 1);

/**
 * Rows per JSON file. Real exports split by row count (their files are all 12.7–12.8 MB, the last
 * one smaller); this count gives files of about that size with the sandbox's names.
 */
export const ROWS_PER_FILE = 16_300;

export const EXTENDED_HISTORY_FOLDER = 'Spotify Extended Streaming History';
export const LEGACY_FOLDER = 'MyData';
export const README_PDF = 'ReadMeFirst_ExtendedStreamingHistory.pdf';

/** The content fields, filled for the row's kind of content and null otherwise. */
const TRACK_FIELDS = [
  'master_metadata_track_name',
  'master_metadata_album_artist_name',
  'master_metadata_album_album_name',
  'spotify_track_uri',
] as const;
const EPISODE_FIELDS = ['episode_name', 'episode_show_name', 'spotify_episode_uri'] as const;
const AUDIOBOOK_FIELDS = [
  'audiobook_title',
  'audiobook_uri',
  'audiobook_chapter_uri',
  'audiobook_chapter_title',
] as const;

/** How the play started and ended, and the modes it was played in. */
const PLAY_FIELDS = [
  'reason_start',
  'reason_end',
  'shuffle',
  'skipped',
  'offline',
  'offline_timestamp',
  'incognito_mode',
] as const;

export const CURRENT_FIELDS = [
  'ts',
  'platform',
  'ms_played',
  'conn_country',
  'ip_addr',
  ...TRACK_FIELDS,
  ...EPISODE_FIELDS,
  ...AUDIOBOOK_FIELDS,
  ...PLAY_FIELDS,
] as const;

export const LEGACY_FIELDS = [
  'ts',
  'username',
  'platform',
  'ms_played',
  'conn_country',
  'ip_addr_decrypted',
  'user_agent_decrypted',
  ...TRACK_FIELDS,
  ...EPISODE_FIELDS,
  ...PLAY_FIELDS,
] as const;

export function variantAt(asOfMs: number): ExportVariant {
  return asOfMs < CURRENT_LAYOUT_FROM ? 'legacy' : 'current';
}

export interface ExtendedHistoryOptions {
  /** The export's date: it holds every play that ended up to then. */
  asOfMs: number;
  /** Default: the layout Spotify used at `asOfMs` (see `variantAt`). */
  variant?: ExportVariant;
  /** Default `ROWS_PER_FILE`. */
  rowsPerFile?: number;
  /** zlib level, 0–9; default 6 (as most ZIP tools). */
  compressionLevel?: number;
}

export interface ExportFile {
  /** Path inside the archive. */
  name: string;
  rows: number;
}

export interface ExportSummary {
  variant: ExportVariant;
  /** The JSON files written (audio, then video). */
  files: ExportFile[];
  rows: number;
}

const NULL = 'null';

/** Escaped names of a track, printed once per track rather than once per play. */
const labelJson = new WeakMap<TrackLabel, readonly [string, string, string, string]>();

function trackJson(label: TrackLabel): readonly [string, string, string, string] {
  let json = labelJson.get(label);
  if (!json) {
    json = [
      jsonValue(label.name),
      jsonValue(label.artist),
      jsonValue(label.album),
      jsonValue(label.uri),
    ];
    labelJson.set(label, json);
  }
  return json;
}

const NO_TRACK: readonly string[] = TRACK_FIELDS.map(() => NULL);
const NO_EPISODE: readonly string[] = EPISODE_FIELDS.map(() => NULL);
const NO_AUDIOBOOK: readonly string[] = AUDIOBOOK_FIELDS.map(() => NULL);

/** Values of the content fields: track, episode, then audiobook. */
function contentJson(row: StreamRow): string[] {
  const content = row.content;
  if (content.kind === 'track') {
    return [...trackJson(content.track), ...NO_EPISODE, ...NO_AUDIOBOOK];
  }
  if (content.kind === 'episode') {
    const { episode } = content;
    return [
      ...NO_TRACK,
      jsonValue(episode.name),
      jsonValue(episode.show.name),
      jsonValue(episode.uri),
      ...NO_AUDIOBOOK,
    ];
  }
  const { chapter } = content;
  return [
    ...NO_TRACK,
    ...NO_EPISODE,
    jsonValue(chapter.book.title),
    jsonValue(`spotify:show:${chapter.book.id}`),
    jsonValue(chapter.uri),
    jsonValue(chapter.title),
  ];
}

function playJson(row: StreamRow): string[] {
  return [
    jsonRecurring(row.reasonStart),
    jsonRecurring(row.reasonEnd),
    String(row.shuffle),
    String(row.skipped),
    String(row.offline),
    String(row.offlineTimestamp),
    String(row.incognito),
  ];
}

const CURRENT_RECORD: RecordLayout = JACKSON_ROOT.record(CURRENT_FIELDS);
const LEGACY_RECORD: RecordLayout = COMPACT.record(LEGACY_FIELDS);

export function printCurrentRow(row: StreamRow): string {
  return printRecord(CURRENT_RECORD, [
    `"${isoSecond(row.ts)}"`,
    jsonRecurring(row.platform),
    String(row.msPlayed),
    jsonRecurring(row.country),
    jsonRecurring(row.ip),
    ...contentJson(row),
    ...playJson(row),
  ]);
}

export function printLegacyRow(row: StreamRow, username: string): string {
  return printRecord(LEGACY_RECORD, [
    `"${isoSecond(row.ts)}"`,
    jsonRecurring(username),
    jsonRecurring(row.platform),
    String(row.msPlayed),
    jsonRecurring(row.country),
    jsonRecurring(row.ip),
    jsonRecurring(row.userAgent),
    // Legacy exports have no audiobook fields.
    ...contentJson(row).slice(0, TRACK_FIELDS.length + EPISODE_FIELDS.length),
    ...playJson(row),
  ]);
}

/**
 * Streams an account's Extended Streaming History ZIP to `destination`, consistent with
 * `world.history`: each play is one music row. Memory stays bounded (about two JSON files) however
 * long the history; resolves once the archive is completely written.
 */
export async function writeExtendedHistoryZip(
  world: World,
  accountId: string,
  options: ExtendedHistoryOptions,
  destination: Writable,
): Promise<ExportSummary> {
  const account = world.account(accountId);
  if (!account) throw new Error(`spotify-sandbox: no account "${accountId}"`);
  const variant = options.variant ?? variantAt(options.asOfMs);
  const rowsPerFile = checkRowsPerFile(options.rowsPerFile ?? ROWS_PER_FILE);
  const zip = exportArchive(destination, options.asOfMs, options.compressionLevel);
  const legacy = variant === 'legacy';
  const folder = legacy ? LEGACY_FOLDER : EXTENDED_HISTORY_FOLDER;
  zip.directory(`${folder}/`);
  await zip.add(`${folder}/${README_PDF}`, [readMeFirstPdf()]);

  const series = (kind: 'Audio' | 'Video') =>
    new SplitJsonSeries(
      zip,
      legacy ? COMPACT : JACKSON_ROOT,
      rowsPerFile,
      legacy
        ? ({ index }) => `${folder}/endsong_${index}.json`
        : ({ index, several, firstTs, lastTs }) =>
            `${folder}/Streaming_History_${kind}_${yearSpan(firstTs, lastTs)}${several ? `_${index}` : ''}.json`,
    );
  const audio = series('Audio');
  const video = legacy ? audio : series('Video');
  const spoken = new SpokenCatalogue(world.seed);
  let rows = 0;
  for (const row of streamingRows(world, account, spoken, {
    untilMs: options.asOfMs,
    audiobooks: !legacy,
  })) {
    const written = legacy
      ? audio.push(printLegacyRow(row, account.id), row.ts)
      : (row.video ? video : audio).push(printCurrentRow(row), row.ts);
    if (written) await written;
    rows++;
  }
  const files = [...(await audio.finish({ ts: options.asOfMs }))];
  if (!legacy) files.push(...(await video.finish()));
  await zip.end();
  return { variant, files, rows };
}
