/**
 * The benchmark's Extended Streaming History ZIP: `plays` rows of one sandbox account's history,
 * written with the sandbox's own row printers and ZIP writer. Unlike one real export (a single
 * layout), it holds both layouts Earshot reads, as a user with an old and a new export would have
 * them: rows before the current layout's date in legacy `MyData/endsong_<N>.json` files, later
 * ones in `Spotify Extended Streaming History/Streaming_History_{Audio,Video}_*.json`. The row mix
 * is the sandbox's (music with skips and short plays, podcasts, audiobook chapters, videos,
 * incognito sessions). The newest `plays` rows are kept, so smaller runs keep both layouts.
 *
 * Built once per size into `bench/import/.cache/`.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CURRENT_LAYOUT_FROM,
  EXTENDED_HISTORY_FOLDER,
  LEGACY_FOLDER,
  README_PDF,
  printCurrentRow,
  printLegacyRow,
} from '@earshot/spotify-sandbox/exports/extended-history';
import { COMPACT, JACKSON_ROOT } from '@earshot/spotify-sandbox/exports/json';
import { readMeFirstPdf } from '@earshot/spotify-sandbox/exports/pdf';
import { streamingRows, type StreamRow } from '@earshot/spotify-sandbox/exports/rows';
import { SpokenCatalogue } from '@earshot/spotify-sandbox/exports/spoken';
import { SplitJsonSeries, yearSpan, ZipWriter } from '@earshot/spotify-sandbox/exports/zip-writer';
import type { Account, World } from '@earshot/spotify-sandbox/world/model';
import { createWorld } from '@earshot/spotify-sandbox/world/world';

export const CACHE_DIR = new URL('./.cache/', import.meta.url).pathname;

/** A heavy listener with every kind of row (podcasts, chapters, videos, incognito). */
const ACCOUNT = 'chidiokafor';
/** With 12 years of world history this account has ~1.03 M rows up to `AS_OF`. */
const FULL_SCALE = 11;
const FULL_PLAYS = 1_000_000;
const YEARS = 12;
const AS_OF = Date.UTC(2026, 5, 1);
const ROWS_PER_FILE = 16_300;

export interface HistoryZip {
  path: string;
  bytes: number;
  rows: number;
  /** Rows per kind, to show the mix. */
  mix: Record<string, number>;
  files: { name: string; rows: number }[];
}

interface Counted {
  total: number;
  mix: Record<string, number>;
}

function kindOf(row: StreamRow): string {
  const content = row.content.kind === 'track' ? 'music' : row.content.kind;
  if (row.video) return `${content} video`;
  if (row.incognito) return `${content} incognito`;
  if (row.msPlayed < 30_000) return `${content} short`;
  return content;
}

function rowsOf(world: World, account: Account) {
  return streamingRows(world, account, new SpokenCatalogue(world.seed), {
    untilMs: AS_OF,
    audiobooks: true,
  });
}

function count(world: World, account: Account, skip: number): Counted {
  const mix: Record<string, number> = {};
  let total = 0;
  for (const row of rowsOf(world, account)) {
    if (total++ < skip) continue;
    const kind = kindOf(row);
    mix[kind] = (mix[kind] ?? 0) + 1;
  }
  return { total, mix };
}

/** Writes the ZIP of the newest `plays` rows to `out`. */
export async function writeHistoryZip(plays: number, out: string): Promise<HistoryZip> {
  // Smaller runs thin the listening out rather than cut years off, so both layouts stay in.
  const scale = Math.max(0.5, (FULL_SCALE * plays) / FULL_PLAYS);
  const world = createWorld({ sizes: { dailyPlaysScale: scale, historyYears: YEARS } });
  const account = world.account(ACCOUNT);
  if (!account) throw new Error(`the sandbox world has no account ${ACCOUNT}`);
  const { total } = count(world, account, 0);
  if (total < plays) {
    throw new Error(`${ACCOUNT} has only ${total} rows at scale ${scale}; ask for fewer plays`);
  }
  const skip = total - plays;
  const { mix } = count(world, account, skip);

  const file = createWriteStream(`${out}.tmp`);
  const closed = once(file, 'close');
  const zip = new ZipWriter(file, { mtime: new Date(AS_OF), compressionLevel: 6 });
  for (const folder of [LEGACY_FOLDER, EXTENDED_HISTORY_FOLDER]) {
    zip.directory(`${folder}/`);
    await zip.add(`${folder}/${README_PDF}`, [readMeFirstPdf()]);
  }
  const legacy = new SplitJsonSeries(
    zip,
    COMPACT,
    ROWS_PER_FILE,
    ({ index }) => `${LEGACY_FOLDER}/endsong_${index}.json`,
  );
  const current = (kind: 'Audio' | 'Video') =>
    new SplitJsonSeries(
      zip,
      JACKSON_ROOT,
      ROWS_PER_FILE,
      ({ index, several, firstTs, lastTs }) =>
        `${EXTENDED_HISTORY_FOLDER}/Streaming_History_${kind}_${yearSpan(firstTs, lastTs)}${several ? `_${index}` : ''}.json`,
    );
  const audio = current('Audio');
  const video = current('Video');
  let seen = 0;
  for (const row of rowsOf(world, account)) {
    if (seen++ < skip) continue;
    // The legacy layout has no audiobook fields: chapters (from late 2023) go to current files.
    const written =
      row.ts < CURRENT_LAYOUT_FROM && row.content.kind !== 'chapter'
        ? legacy.push(printLegacyRow(row, account.id), row.ts)
        : (row.video ? video : audio).push(printCurrentRow(row), row.ts);
    if (written) await written;
  }
  const files = [...(await legacy.finish()), ...(await audio.finish()), ...(await video.finish())];
  await zip.end();
  await closed;
  await rename(`${out}.tmp`, out);
  return { path: out, bytes: (await stat(out)).size, rows: plays, mix, files };
}

/** The cached ZIP of `plays` rows (and what it holds), built first if missing. */
export async function historyZip(plays: number): Promise<HistoryZip & { built: boolean }> {
  await mkdir(CACHE_DIR, { recursive: true });
  const out = path.join(CACHE_DIR, `history-${plays}.zip`);
  const summary = `${out}.json`;
  try {
    const cached = JSON.parse(await readFile(summary, 'utf8')) as HistoryZip;
    await stat(cached.path);
    return { ...cached, built: false };
  } catch {
    const written = await writeHistoryZip(plays, out);
    await writeFile(summary, `${JSON.stringify(written, null, 2)}\n`);
    return { ...written, built: true };
  }
}
