/**
 * `npm run bench:import` (issue 6): the import of a 1,000,000-row Extended Streaming History ZIP,
 * against its floor measured in the same run.
 *
 *   (a) floor: unzip (yauzl) + JSON.parse of every file, nothing else (median of runs)
 *   (b) Earshot on PostgreSQL, end to end over HTTP (upload, job, status polls)
 *   (c) the same on the embedded PGlite
 *
 * Goals: (b) within 3x of (a) and under 30 s; the server's peak RSS under 400 MB throughout.
 *
 * Options: --plays N (default 1000000), --quick (100000 plays), --floor-runs N (default 3),
 * --no-pglite, --what-if (also PostgreSQL runs with parts of the schema's per-play work taken
 * away, to show where the time goes), --postgres URL (server, no database; default
 * postgres://postgres@127.0.0.1:5432), --database NAME (the one it recreates and drops; default
 * earshot_bench_import), --port N (Earshot's; default any free one).
 * Writes bench/results/import.{json,md} (import-<plays>.* for other sizes).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WHAT_IF, measureImport, type ImportMeasurement } from './earshot-import';
import type { FloorResult } from './floor';
import { historyZip } from './history-zip';
import { REPO_ROOT, runTs } from './support/processes';

const GOAL_RATIO = 3;
const GOAL_SECONDS = 30;
const GOAL_PEAK_MB = 400;

const { values } = parseArgs({
  options: {
    plays: { type: 'string' },
    quick: { type: 'boolean', default: false },
    'floor-runs': { type: 'string', default: '3' },
    'no-pglite': { type: 'boolean', default: false },
    'what-if': { type: 'boolean', default: false },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
    database: { type: 'string', default: 'earshot_bench_import' },
    port: { type: 'string', default: '0' },
  },
  strict: true,
});
const plays = Number(values.plays ?? (values.quick ? 100_000 : 1_000_000));
if (!Number.isInteger(plays) || plays < 1000) throw new Error('--plays must be at least 1000');
const floorRuns = Number(values['floor-runs']);
const log = (line: string) => console.log(line);

const loadBefore = os.loadavg()[0] ?? 0;
log(`bench:import — ${plays.toLocaleString('en')} rows (load average ${loadBefore.toFixed(1)})`);
let started = performance.now();
const zip = await historyZip(plays);
log(
  `  ZIP ${zip.built ? 'built' : 'cached'}: ${path.relative(REPO_ROOT, zip.path)} ` +
    `(${(zip.bytes / 1e6).toFixed(1)} MB, ${zip.files.length} files` +
    `${zip.built ? `, ${((performance.now() - started) / 1000).toFixed(1)} s` : ''})`,
);
log(
  `  rows: ${Object.entries(zip.mix)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ')}`,
);

log(`(a) floor: yauzl + JSON.parse, ${floorRuns} runs`);
const floors: FloorResult[] = [];
for (let run = 0; run < floorRuns; run++) {
  const output = await runTs(new URL('./floor.ts', import.meta.url).pathname, [zip.path], {});
  const result = JSON.parse(output.trim().split('\n').pop() ?? '') as FloorResult;
  floors.push(result);
  log(`    ${result.seconds.toFixed(2)} s, peak RSS ${result.peakRssMb.toFixed(0)} MB`);
}
const floorSec = median(floors.map((floor) => floor.seconds));

const runs: ImportMeasurement[] = [];
for (const database of ['postgres', 'pglite'] as const) {
  if (database === 'pglite' && values['no-pglite']) continue;
  log(`(${database === 'postgres' ? 'b' : 'c'}) Earshot import on ${database}`);
  started = performance.now();
  const result = await measureImport({
    zip: zip.path,
    database,
    postgresUrl: values.postgres,
    dbName: values.database,
    port: Number(values.port),
    log,
  });
  runs.push(result);
  log(
    `    ${result.totalSec.toFixed(2)} s end to end (upload ${result.uploadSec.toFixed(2)}, ` +
      `queued ${result.queuedSec.toFixed(2)}, running ${result.runningSec.toFixed(2)}), ` +
      `peak RSS ${result.peakRssMb.toFixed(0)} MB, ${result.playsAdded} plays added`,
  );
}

// What-if runs: the same import on PostgreSQL with parts of the schema's per-play work taken away.
const whatIfs: (ImportMeasurement & { variant: string })[] = [];
if (values['what-if']) {
  for (const [variant, sql] of Object.entries(WHAT_IF)) {
    log(`(what if) ${variant}`);
    const result = await measureImport({
      zip: zip.path,
      database: 'postgres',
      postgresUrl: values.postgres,
      dbName: values.database,
      port: Number(values.port),
      whatIf: sql,
      log,
    });
    whatIfs.push({ ...result, variant });
    log(
      `    ${result.totalSec.toFixed(2)} s end to end, CPU: server ${result.serverCpuSec.toFixed(1)} s, ` +
        `PostgreSQL ${result.postgresCpuSec?.toFixed(1)} s`,
    );
  }
}

const postgres = runs.find((run) => run.database === 'postgres');
const pglite = runs.find((run) => run.database === 'pglite');
const goals = postgres && {
  withinRatio: postgres.totalSec <= GOAL_RATIO * floorSec,
  underSeconds: postgres.totalSec < GOAL_SECONDS,
  peakMemory: postgres.peakRssMb < GOAL_PEAK_MB,
};

const row = (name: string, seconds: number, vsFloor: string, peak: number, extra: string) =>
  `| ${name} | ${seconds.toFixed(2)} | ${vsFloor} | ${peak.toFixed(0)} | ${extra} |`;
const table = [
  '| run | seconds | × floor | peak RSS MB | notes |',
  '| --- | ---: | ---: | ---: | --- |',
  row(
    '(a) floor: yauzl + JSON.parse',
    floorSec,
    '1.00',
    Math.max(...floors.map((floor) => floor.peakRssMb)),
    `median of ${floors.length}: ${floors.map((floor) => floor.seconds.toFixed(2)).join(', ')}`,
  ),
  ...runs.map((run) =>
    row(
      `(${run.database === 'postgres' ? 'b' : 'c'}) Earshot on ${run.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}`,
      run.totalSec,
      (run.totalSec / floorSec).toFixed(2),
      run.peakRssMb,
      `upload ${run.uploadSec.toFixed(2)} s, queued ${run.queuedSec.toFixed(2)} s, ` +
        `running ${run.runningSec.toFixed(2)} s; ${run.playsAdded} plays added; CPU: server ` +
        `${run.serverCpuSec.toFixed(1)} s${run.postgresCpuSec === null ? '' : `, PostgreSQL ${run.postgresCpuSec.toFixed(1)} s`}`,
    ),
  ),
];
const whatIfLines = whatIfs.map(
  (run) =>
    `- what if (not Earshot's schema) ${run.variant}: ${run.totalSec.toFixed(2)} s ` +
    `(${(run.totalSec / floorSec).toFixed(2)}×), PostgreSQL CPU ${run.postgresCpuSec?.toFixed(1)} s, ` +
    `server CPU ${run.serverCpuSec.toFixed(1)} s`,
);
const verdict = goals
  ? [
      `- (b) within ${GOAL_RATIO}× of (a): ${goals.withinRatio ? 'met' : 'MISSED'} ` +
        `(${(postgres.totalSec / floorSec).toFixed(2)}×)`,
      `- (b) under ${GOAL_SECONDS} s: ${goals.underSeconds ? 'met' : 'MISSED'} ` +
        `(${postgres.totalSec.toFixed(2)} s)`,
      `- (b) server peak RSS under ${GOAL_PEAK_MB} MB: ${goals.peakMemory ? 'met' : 'MISSED'} ` +
        `(${postgres.peakRssMb.toFixed(0)} MB; ${postgres.serverStartRssMb.toFixed(0)} MB before the upload)`,
      ...(pglite
        ? [
            `- (c) PGlite, reported: ${pglite.totalSec.toFixed(2)} s ` +
              `(${(pglite.totalSec / floorSec).toFixed(2)}×), peak RSS ${pglite.peakRssMb.toFixed(0)} MB ` +
              `(${pglite.serverStartRssMb.toFixed(0)} MB before the upload: the database runs inside the server)`,
          ]
        : []),
    ]
  : [];
log('');
for (const line of [...table, '', ...verdict, ...whatIfLines]) log(line);

const environment = {
  date: new Date().toISOString(),
  commit: git(['rev-parse', '--short', 'HEAD']),
  dirty: git(['status', '--porcelain', '--', 'apps/server/src']) !== '',
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memoryGb: Math.round(os.totalmem() / 1e9),
  /** 1-minute load averages at the start and the end: the machine is shared. */
  loadAverage: { before: loadBefore, after: os.loadavg()[0] ?? 0 },
};
const name = plays === 1_000_000 ? 'import' : `import-${plays}`;
const resultsDir = path.join(REPO_ROOT, 'bench/results');
await mkdir(resultsDir, { recursive: true });
await writeFile(
  path.join(resultsDir, `${name}.json`),
  `${JSON.stringify(
    {
      benchmark: 'import',
      environment,
      archive: {
        rows: zip.rows,
        bytes: zip.bytes,
        files: zip.files.length,
        unpackedBytes: floors[0]?.unpackedBytes,
        mix: zip.mix,
      },
      floor: { medianSec: floorSec, runs: floors },
      imports: runs,
      whatIf: whatIfs,
      goals: goals ?? null,
    },
    null,
    2,
  )}\n`,
);
await writeFile(
  path.join(resultsDir, `${name}.md`),
  [
    `# bench:import — ${plays.toLocaleString('en')} rows`,
    '',
    `${environment.date}, commit ${environment.commit}${environment.dirty ? ' (server modified)' : ''}, ` +
      `Node ${environment.node}, ${environment.cpus} × ${environment.cpuModel}, ` +
      `load average ${environment.loadAverage.before.toFixed(1)} → ${environment.loadAverage.after.toFixed(1)}.`,
    `Archive: ${(zip.bytes / 1e6).toFixed(1)} MB, ${zip.files.length} history files ` +
      `(legacy endsong and current Audio/Video), ${((floors[0]?.unpackedBytes ?? 0) / 1e6).toFixed(0)} MB of JSON; ` +
      `rows: ${Object.entries(zip.mix)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ')}.`,
    '',
    ...table,
    '',
    ...verdict,
    ...whatIfLines,
    '',
  ].join('\n'),
);
log(`\nwritten: bench/results/${name}.json, bench/results/${name}.md`);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
