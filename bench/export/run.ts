/**
 * `npm run bench:export`: issue 16's "Download my data" for a listener with 1,000,000 plays
 * (× --scale), the profile benchmark's world. Earshot runs as its own process with its jobs;
 * the export is started over HTTP, its progress polled until it is ready, and the ZIP
 * downloaded and checked. Measured: start to ready, the download, the ZIP's size, the server's
 * resident memory (before, peak, growth), the CPU time of the server and of PostgreSQL, and
 * `GET /api/status` latency before (the baseline), during and after the export.
 * Goals: ready within 60 s, the server within 300 MB. Writes results/export-<backend>-x<scale>.*.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import yauzl from 'yauzl';
import {
  countArchiveRows,
  writeArchive,
  type ArchiveProgress,
} from '../../apps/server/src/services/export/archive';
import { findUserByHandle } from '../../apps/server/src/services/users';
import { applyMigrations } from '../../apps/server/src/db/client';
import { cpuDuring, cpuMeter, loadAverage } from '../lib/cpu';
import { generatedDataOptions, readBackend, withGeneratedWorld } from '../lib/database';
import { explainCalls, formatPlans, type QueryPlan } from '../lib/explain';
import { readOptions } from '../lib/options';
import { machineDescription, markdownTable, writeReport } from '../lib/report';
import { withEarshot } from '../lib/server';
import { createSessions } from '../lib/sessions';
import { secondsSince } from '../lib/steps';
import { RssSampler, memoryOf, perSecond, sleep } from '../import/support/processes';
import { generateProfileWorld, OWNER, profileSize } from '../profile/generate';

const options = readOptions({
  ...generatedDataOptions({ database: 'earshot_bench_export', seed: 2 }),
  /** Seconds of `GET /api/status` probing before the export: the baseline. */
  baseline: 10,
  /** The probe sends one `GET /api/status` at a time, this often (ms). */
  probeMs: 50,
  /** Progress polls (ms); the Settings page polls every second. */
  pollMs: 100,
  goalSeconds: 60,
  goalMb: 300,
  /** The server's port; any free one when 0. */
  port: 0,
});

const backend = readBackend(options.backend);
const size = profileSize(options.scale);
const label = `export-${backend}-x${options.scale}`;

interface DataExport {
  id: string;
  status: 'pending' | 'running' | 'ready' | 'failed';
  phase: string | null;
  rows_written: number;
  rows_total: number;
  size_bytes: number | null;
  error: string | null;
}

interface Poll {
  atMs: number;
  state: DataExport;
  /** CPU seconds of the server and of PostgreSQL since the export was started. */
  cpu: Record<string, number>;
}

interface Latencies {
  requests: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  mean_ms: number;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function latencies(samples: number[]): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (share: number) =>
    round(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0, 2);
  return {
    requests: sorted.length,
    p50_ms: at(0.5),
    p90_ms: at(0.9),
    p99_ms: at(0.99),
    max_ms: round(sorted[sorted.length - 1] ?? 0, 2),
    mean_ms: round(sorted.reduce((sum, ms) => sum + ms, 0) / Math.max(1, sorted.length), 2),
  };
}

/**
 * `GET /api/status` one at a time every `everyMs` until `done()`: what a user's other requests
 * wait while the server works, not the server's throughput.
 */
async function probeStatus(url: string, everyMs: number, done: () => boolean): Promise<number[]> {
  const samples: number[] = [];
  while (!done()) {
    const started = performance.now();
    const response = await fetch(`${url}/api/status`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET /api/status answered ${response.status}`);
    const ms = performance.now() - started;
    samples.push(ms);
    await sleep(Math.max(0, everyMs - ms));
  }
  return samples;
}

/** Entry sizes of a ZIP from its central directory, and the line count of one entry. */
function inspectZip(file: string, countLinesOf: string) {
  return new Promise<{ entries: Record<string, number>; lines: number }>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: Record<string, number> = {};
      let lines = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        entries[entry.fileName] = entry.uncompressedSize;
        if (entry.fileName !== countLinesOf) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          stream.on('data', (chunk: Buffer) => {
            for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
          });
          stream.on('end', () => zip.readEntry());
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve({ entries, lines }));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The statements of the export's first two batches of plays (the rest repeat them). */
async function exportPlans(pool: pg.Pool, userId: string): Promise<QueryPlan[]> {
  return explainCalls(pool, async (db) => {
    const user = (await findUserByHandle(db, userId))!;
    await countArchiveRows(db, userId);
    const abort = new AbortController();
    let written = 0;
    let counts = 0;
    const progress: ArchiveProgress = {
      phase: null,
      get rowsWritten() {
        return written;
      },
      set rowsWritten(value: number) {
        written = value;
        // Counted once for the profile, then once a batch: stop after two batches of plays.
        if (++counts === 3) abort.abort(new Error('enough'));
      },
    };
    await writeArchive(db, user, '/dev/null', progress, abort.signal).catch(() => {});
  });
}

async function main() {
  const started = performance.now();
  console.log(`Export benchmark (${backend}, scale ${options.scale}):`, size);
  await withGeneratedWorld(
    'export',
    { ...options, backend },
    (pool, settings) => generateProfileWorld(pool, size, settings),
    async (bench, world) => {
      const database = await bench.open();
      // Data reused from before the latest migrations gets them now, as the server would.
      await applyMigrations(database);
      const { pool } = database;
      const owner = (
        await pool.query<{ id: string; username: string }>(
          `SELECT id, username FROM users WHERE spotify_id = $1`,
          [`bench-${OWNER}`],
        )
      ).rows[0]!;
      const [cookie] = (await createSessions(pool, [owner.id])) as [string];
      // Jobs run in the server: with every account revoked no sync or catalogue job has a
      // token to work with, so the export has the job runner to itself.
      await pool.query(`UPDATE spotify_accounts SET status = 'revoked'`);
      await pool.query(`DELETE FROM data_exports`);
      console.log('EXPLAIN (ANALYZE, BUFFERS) of the first two batches:');
      const plans = await exportPlans(pool, owner.id);
      for (const plan of plans) {
        console.log(`  ${plan.execution_ms} ms  ${plan.sql.trim().split('\n')[0]!.slice(0, 90)}`);
      }
      await bench.release();

      const exportDir = await mkdtemp(path.join(tmpdir(), 'earshot-bench-export-'));
      const headers = { cookie };
      try {
        const figures = await withEarshot(
          bench,
          {
            ...options,
            connections: 1,
            duration: options.baseline,
            warmup: 0,
            port: options.port || undefined,
          },
          { JOBS_IN_PROCESS: 'true', EXPORT_DIR: exportDir },
          async (url, load) => {
            const groups = load.processes ?? [];
            const [serverPid] = await groups.find((g) => g.label === 'server')!.pids();
            const memory = new RssSampler(serverPid!);
            const startedRssMb = memoryOf(serverPid!)!.rssMb;
            // The baseline; meanwhile the job runner finishes starting.
            console.log(`GET /api/status every ${options.probeMs} ms for ${options.baseline} s…`);
            const baselineEnd = performance.now() + options.baseline * 1000;
            const before = latencies(
              await probeStatus(url, options.probeMs, () => performance.now() > baselineEnd),
            );
            console.log('  baseline', before);
            const idleRssMb = memoryOf(serverPid!)!.rssMb;
            const loadBefore = loadAverage();

            let ready: DataExport | undefined;
            const polls: Poll[] = [];
            const measured = groups.filter((g) => g.label !== 'autocannon');
            const t0 = performance.now();
            const { result, cpuSeconds } = await cpuDuring(measured, async () => {
              // CPU time at each poll: how much each phase cost, steadier than its duration.
              const meter = await cpuMeter(measured);
              const during = probeStatus(url, options.probeMs, () => ready !== undefined);
              const startAnswer = await fetch(`${url}/api/user/export`, {
                method: 'POST',
                headers,
              });
              if (startAnswer.status !== 202) {
                throw new Error(
                  `POST /api/user/export: ${startAnswer.status} ${await startAnswer.text()}`,
                );
              }
              for (;;) {
                const answer = await fetch(`${url}/api/user/export`, { headers });
                const state = (await answer.json()) as { export: DataExport };
                polls.push({
                  atMs: performance.now() - t0,
                  state: state.export,
                  cpu: await meter.read(),
                });
                if (state.export.status === 'failed') {
                  throw new Error(`The export failed: ${state.export.error}`);
                }
                if (state.export.status === 'ready') {
                  ready = state.export;
                  break;
                }
                await sleep(options.pollMs);
              }
              return { during: latencies(await during), readyMs: performance.now() - t0 };
            });
            const exportSeries = memory.stop().series;
            const exportPeakMb = Math.max(...exportSeries.map((s) => s.rssMb));

            const downloadSampler = new RssSampler(serverPid!);
            const zipFile = path.join(exportDir, 'downloaded.zip');
            const downloadStart = performance.now();
            const download = await fetch(`${url}/api/user/export/download`, { headers });
            if (!download.ok || !download.body) {
              throw new Error(`download: ${download.status} ${await download.text()}`);
            }
            await pipeline(Readable.fromWeb(download.body), createWriteStream(zipFile));
            const downloadMs = performance.now() - downloadStart;
            const downloadPeakMb = downloadSampler.stop().peakMb;
            const after = latencies(
              await probeStatus(
                url,
                options.probeMs,
                (() => {
                  const end = performance.now() + 5_000;
                  return () => performance.now() > end;
                })(),
              ),
            );
            const hwmMb = memoryOf(serverPid!)!.hwmMb;
            const zip = await inspectZip(zipFile, 'plays.csv');
            return {
              startedRssMb,
              idleRssMb,
              exportPeakMb,
              downloadPeakMb,
              hwmMb,
              before,
              during: result.during,
              after,
              readyMs: result.readyMs,
              downloadMs,
              polls,
              ready: ready!,
              zip,
              cpuSeconds,
              loadAverage: [loadBefore, loadAverage()] as [number, number],
              rssSeries: exportSeries,
            };
          },
        );
        console.log('Progress:', timeline(figures.polls));
        console.log('Summary:', summary(figures));
        await writeReport(label, {
          json: reportJson(figures, world, started),
          plans: formatPlans([
            { title: 'The export: row count and its first two batches of plays', plans },
          ]),
          markdown: reportMarkdown(figures, world, await machineDescription()),
        });
      } finally {
        await rm(exportDir, { recursive: true, force: true });
      }
    },
  );
}

type Figures = {
  startedRssMb: number;
  idleRssMb: number;
  exportPeakMb: number;
  downloadPeakMb: number;
  hwmMb: number;
  before: Latencies;
  during: Latencies;
  after: Latencies;
  readyMs: number;
  downloadMs: number;
  polls: Poll[];
  ready: DataExport;
  zip: { entries: Record<string, number>; lines: number };
  cpuSeconds: Record<string, number>;
  loadAverage: [number, number];
  rssSeries: { atMs: number; rssMb: number }[];
};

/**
 * When the export was first seen running, and when each entry of the ZIP was first seen; with the
 * CPU seconds the server and PostgreSQL used from then until the next entry was seen.
 */
function timeline(polls: Figures['polls']) {
  const seen: {
    phase: string;
    at_s: number;
    rows_written: number;
    cpu: Record<string, number>;
  }[] = [];
  for (const { atMs, state, cpu } of polls) {
    const phase = state.status === 'running' ? (state.phase ?? 'running') : state.status;
    if (seen[seen.length - 1]?.phase !== phase) {
      seen.push({ phase, at_s: round(atMs / 1000, 2), rows_written: state.rows_written, cpu });
    }
  }
  return seen.map((entry, i) => {
    const next = seen[i + 1]?.cpu ?? entry.cpu;
    const cpu_s = Object.fromEntries(
      Object.entries(next).map(([group, s]) => [group, round(s - (entry.cpu[group] ?? 0), 2)]),
    );
    return { phase: entry.phase, at_s: entry.at_s, rows_written: entry.rows_written, cpu_s };
  });
}

function summary(f: Figures) {
  const seconds = round(f.readyMs / 1000, 2);
  return {
    ready_s: seconds,
    queued_s: round((f.polls.find((p) => p.state.status !== 'pending')?.atMs ?? 0) / 1000, 2),
    download_s: round(f.downloadMs / 1000, 2),
    zip_mb: round((f.ready.size_bytes ?? 0) / 1e6, 1),
    unpacked_mb: round(Object.values(f.zip.entries).reduce((sum, n) => sum + n, 0) / 1e6, 1),
    rows: f.ready.rows_written,
    plays_csv_lines: f.zip.lines,
    rss_started_mb: round(f.startedRssMb),
    rss_before_mb: round(f.idleRssMb),
    rss_peak_export_mb: round(f.exportPeakMb),
    rss_growth_mb: round(f.exportPeakMb - f.idleRssMb),
    rss_peak_download_mb: round(f.downloadPeakMb),
    vm_hwm_mb: round(f.hwmMb),
    cpu_s: f.cpuSeconds,
    goal_time_met: seconds <= options.goalSeconds,
    goal_memory_met: f.exportPeakMb <= options.goalMb && f.downloadPeakMb <= options.goalMb,
  };
}

function reportJson(f: Figures, world: unknown, started: number) {
  return {
    benchmark: 'export',
    backend,
    scale: options.scale,
    size,
    world,
    options,
    summary: summary(f),
    status_latency: { before: f.before, during: f.during, after: f.after },
    timeline: timeline(f.polls),
    zip_entries: f.zip.entries,
    load_average: f.loadAverage,
    rss_per_second: perSecond(f.rssSeries),
    total_seconds: secondsSince(started),
  };
}

function reportMarkdown(
  f: Figures,
  world: { rows: Record<string, number>; seconds: number },
  machine: string,
) {
  const s = summary(f);
  const mark = (met: boolean) => (met ? '✅' : '❌');
  const cpu = Object.entries(s.cpu_s)
    .map(([group, seconds]) => `${group} ${seconds} s`)
    .join(', ');
  return [
    `# Export benchmark — ${backend}, scale ${options.scale}`,
    '',
    `${machine}. The exporting user: ${size.ownerPlays} plays over ten years, ${world.rows.owner_distinct_tracks} distinct tracks, ${size.ownerLikes} likes (generated in ${world.seconds} s).`,
    `Earshot ran as \`main.ts serve\` with its jobs; the export was started with \`POST /api/user/export\`, its progress polled every ${options.pollMs} ms, the ZIP downloaded with \`GET /api/user/export/download\`.`,
    `Machine load average during the export: ${f.loadAverage[0]} → ${f.loadAverage[1]}.`,
    '',
    markdownTable(
      ['figure', 'value', 'goal'],
      [
        [
          'start → ready',
          `${s.ready_s} s (waited for a worker ${s.queued_s} s)`,
          `≤ ${options.goalSeconds} s ${mark(s.goal_time_met)}`,
        ],
        ['download', `${s.download_s} s`, ''],
        [
          'ZIP',
          `${s.zip_mb} MB (${s.unpacked_mb} MB unpacked, ${s.rows} rows; plays.csv ${s.plays_csv_lines} lines)`,
          '',
        ],
        ['server RSS before', `${s.rss_before_mb} MB (${s.rss_started_mb} MB just started)`, ''],
        [
          'server RSS peak, export',
          `${s.rss_peak_export_mb} MB (+${s.rss_growth_mb} MB)`,
          `≤ ${options.goalMb} MB ${mark(s.goal_memory_met)}`,
        ],
        ['server RSS peak, download', `${s.rss_peak_download_mb} MB`, ''],
        ['server VmHWM (whole life)', `${s.vm_hwm_mb} MB`, ''],
        ['CPU during the export', cpu, ''],
      ],
    ),
    '',
    `\`GET /api/status\`, one request at a time every ${options.probeMs} ms:`,
    '',
    markdownTable(
      ['when', 'requests', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
      [
        ['before (baseline)', f.before],
        ['during the export', f.during],
        ['after the download', f.after],
      ].map(([name, l]) => {
        const m = l as Latencies;
        return [name as string, m.requests, m.p50_ms, m.p90_ms, m.p99_ms, m.max_ms];
      }),
    ),
    '',
    'Progress as polled (first poll that showed each entry being written; CPU seconds from then',
    'until the next entry was seen):',
    '',
    markdownTable(
      ['phase', 'at s', 'rows written', 'server CPU s', 'postgres CPU s'],
      timeline(f.polls).map((t) => [
        t.phase,
        t.at_s,
        t.rows_written,
        t.cpu_s.server ?? '',
        t.cpu_s.postgres ?? '',
      ]),
    ),
    '',
    `Plans of the row count and the first two batches of plays: \`${label}-plans.txt\`.`,
  ].join('\n');
}

await main();
