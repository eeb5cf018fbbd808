/**
 * Writes a sandbox account's export to a file, e.g. a million-play Extended Streaming History for
 * Earshot's import benchmarks:
 *
 *   npx tsx packages/spotify-sandbox/scripts/generate-export.ts \
 *     --account maralindqvist --scale 40 --years 12 --as-of 2026-06-01 --out /tmp/my_spotify_data.zip
 *
 * Options: --kind extended|account-data (default extended), --variant current|legacy (default:
 * the layout of the export date), --scale N (multiplies daily listening), --years N (years of
 * history), --seed N, --as-of ISO date (default now), --level 0-9 (zlib), --out path (default
 * my_spotify_data.zip). Prints the files, rows, time and memory.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { writeAccountDataZip } from '../src/exports/account-data';
import {
  writeExtendedHistoryZip,
  type ExportSummary,
  type ExportVariant,
} from '../src/exports/extended-history';
import { createWorld, DEFAULT_WORLD_SEED, DEFAULT_WORLD_SIZES } from '../src/world/world';

const { values } = parseArgs({
  options: {
    account: { type: 'string' },
    kind: { type: 'string', default: 'extended' },
    variant: { type: 'string' },
    scale: { type: 'string', default: '1' },
    years: { type: 'string', default: String(DEFAULT_WORLD_SIZES.historyYears) },
    seed: { type: 'string', default: String(DEFAULT_WORLD_SEED) },
    'as-of': { type: 'string' },
    level: { type: 'string', default: '6' },
    out: { type: 'string', default: 'my_spotify_data.zip' },
  },
  strict: true,
});

function fail(message: string): never {
  console.error(`generate-export: ${message}`);
  process.exit(2);
}

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) fail(`--${name} must be a positive number`);
  return value;
}

const kind = values.kind;
if (kind !== 'extended' && kind !== 'account-data') fail('--kind must be extended or account-data');
const variant = values.variant as ExportVariant | undefined;
if (variant !== undefined && variant !== 'current' && variant !== 'legacy') {
  fail('--variant must be current or legacy');
}
const level = Number(values.level);
if (!Number.isInteger(level) || level < 0 || level > 9) fail('--level must be 0 to 9');
const seed = Number(values.seed);
if (!Number.isSafeInteger(seed)) fail('--seed must be an integer');
const asOfMs = values['as-of'] === undefined ? Date.now() : Date.parse(values['as-of']);
if (Number.isNaN(asOfMs)) fail('--as-of must be a date, e.g. 2026-06-01');

let started = performance.now();
const world = createWorld({
  seed,
  sizes: {
    dailyPlaysScale: positive('scale', values.scale),
    historyYears: positive('years', values.years),
  },
});
const account = values.account ?? world.accounts[0]?.id ?? fail('the world has no accounts');
if (!world.account(account)) {
  fail(`no account "${account}"; try one of ${world.accounts.map((each) => each.id).join(', ')}`);
}
console.log(`world built in ${(performance.now() - started).toFixed(0)} ms`);

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);
started = performance.now();
const file = createWriteStream(values.out);
const closed = once(file, 'close');
const summary: ExportSummary =
  kind === 'extended'
    ? await writeExtendedHistoryZip(
        world,
        account,
        { asOfMs, variant, compressionLevel: level },
        file,
      )
    : await writeAccountDataZip(world, account, { asOfMs, variant, compressionLevel: level }, file);
await closed;
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);

for (const { name, rows } of summary.files) console.log(`  ${name}: ${rows} rows`);
console.log(
  `${values.out}: ${kind} (${summary.variant}) of ${account} as of ${new Date(asOfMs).toISOString()}`,
);
console.log(
  `${summary.rows} rows in ${seconds.toFixed(1)} s (${Math.round(summary.rows / seconds)} rows/s), ` +
    `${(file.bytesWritten / 1e6).toFixed(1)} MB written, peak RSS ${(peakRss / 1e6).toFixed(0)} MB`,
);
