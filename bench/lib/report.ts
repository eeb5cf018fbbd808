import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Backend } from './database';
import { planFigures, type QueryPlan } from './explain';
import type { Measurement } from './load';
import type { SuiteResult } from './suite';
import { secondsSince } from './steps';

export const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

/** Writes `bench/results/<name>` and returns its path. */
export async function writeResult(name: string, content: string): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${name}`;
  await writeFile(file, content.endsWith('\n') ? content : `${content}\n`);
  return file;
}

export const writeJson = (name: string, value: unknown) =>
  writeResult(name, JSON.stringify(value, null, 2));

/**
 * Writes an HTTP benchmark's `<label>.json`, `<label>-plans.txt` and `<label>.md`, and prints the
 * markdown.
 */
export async function writeReport(
  label: string,
  files: { json: unknown; plans: string; markdown: string },
): Promise<void> {
  await writeJson(`${label}.json`, files.json);
  await writeResult(`${label}-plans.txt`, files.plans);
  await writeResult(`${label}.md`, files.markdown);
  console.log(`\n${files.markdown}\n`);
}

/** A markdown table; numbers are right-aligned. */
export function markdownTable(header: readonly string[], rows: readonly (string | number)[][]) {
  const align = header.map((_, i) =>
    rows.some((row) => typeof row[i] === 'number') ? '--:' : '---',
  );
  return [header, align, ...rows.map((row) => row.map(String))]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
}

/** What the machine is, for the report: results only compare on the same one. */
export async function machineDescription(): Promise<string> {
  const os = await import('node:os');
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/** CPU milliseconds per request of one process group (`server`, `postgres`); 0 if not counted. */
export const cpuMs = (m: Measurement, group: string) => m.cpu_ms_per_request[group] ?? 0;

/** The columns of a suite's variant beside its name: throughput, latency, ratio, CPU time. */
export const SUITE_COLUMNS = ['req/s', 'p50 ms', 'p99 ms', '× status', 'CPU ms/req (server + PG)'];

/** CPU ms per request of the server and PostgreSQL; the embedded database's is the server's. */
const cpuCell = (m: Measurement, backend: Backend) =>
  backend === 'postgres'
    ? `${cpuMs(m, 'server')} + ${cpuMs(m, 'postgres')}`
    : `${cpuMs(m, 'server')} (database inside)`;

/** A variant's cells under `SUITE_COLUMNS`. */
export const suiteCells = (m: Measurement & { ratio_to_status: number }, backend: Backend) => [
  m.requests_per_sec,
  m.latency_p50_ms,
  m.latency_p99_ms,
  m.ratio_to_status,
  cpuCell(m, backend),
];

/**
 * The report's line on the `GET /api/status` baseline before and after the variants: with its
 * p50 latency, or (`cpu`) with the server's CPU time per request and the mean the ratios use.
 */
export function baselineLine(
  { first: before, last: after, requests_per_sec: mean }: SuiteResult['baseline'],
  detail: 'latency' | 'cpu',
): string {
  const figures =
    detail === 'latency'
      ? `(p50 ${before.latency_p50_ms} ms, p99 ${before.latency_p99_ms} / ${after.latency_p99_ms} ms).`
      : `(p99 ${before.latency_p99_ms} / ${after.latency_p99_ms} ms, CPU ${cpuMs(before, 'server')} ms/req); ratios use their mean, ${mean}.`;
  return `Baseline \`GET /api/status\`: ${before.requests_per_sec} req/s before, ${after.requests_per_sec} after ${figures}`;
}

/** The machine's load average from the first baseline to the last: other work skews figures. */
export const loadAverageLine = ({ first, last }: SuiteResult['baseline'], note = '') =>
  `Machine load average during the run: ${first.load_average[0]} → ${last.load_average[1]}${note}.`;

/** Whether a load met a p99 goal: every request answered 2xx, and p99 under the goal. */
export const metGoal = (m: Measurement, goal: number) =>
  m.latency_p99_ms < goal && m.non_2xx + m.errors === 0 && m.requests_per_sec > 0;

/** A variant's figures against a p99 goal, and its statements' database time from EXPLAIN. */
export const goalFigures = (
  m: Measurement & { at_rate?: Measurement },
  goal: number,
  plans: readonly QueryPlan[],
) => ({
  goal_ms: goal,
  goal_met: m.latency_p99_ms < goal,
  failures: m.non_2xx + m.errors,
  ...(m.at_rate && { goal_met_at_rate: metGoal(m.at_rate, goal) }),
  ...planFigures(plans),
});

/** The columns of the same requests at a fixed rate (`--rate`), after the saturation ones. */
export const rateColumns = (rate: number, goal: number) => [
  `at ${rate} req/s: req/s, p50 / p99 ms, CPU ms/req`,
  `p99 < ${goal} ms at ${rate} req/s`,
];

/** A variant's cells under `rateColumns` (empty when it was not loaded at a rate). */
export const rateCells = (m: Measurement | undefined, goal: number, backend: Backend) =>
  m
    ? [
        `${m.requests_per_sec}, ${m.latency_p50_ms} / ${m.latency_p99_ms}, ${cpuCell(m, backend)}`,
        metGoal(m, goal)
          ? '✅'
          : `❌${m.non_2xx + m.errors > 0 ? ` · ${m.non_2xx + m.errors} failures` : ''}`,
      ]
    : ['', ''];

/**
 * The table of a suite whose variants have a p99 goal, and the note on its DB column: the
 * `leading` columns, `SUITE_COLUMNS`, the database time in EXPLAIN and whether the goal was met;
 * with `rate`, the same at that fixed rate.
 */
export function goalTable<
  R extends Measurement & { ratio_to_status: number; at_rate?: Measurement } & ReturnType<
      typeof goalFigures
    >,
>(
  leading: { header: string[]; cells: (result: R) => (string | number)[] },
  results: readonly R[],
  { backend, goal, label, rate }: { backend: Backend; goal: number; label: string; rate: number },
): string[] {
  const table = markdownTable(
    [
      ...leading.header,
      ...SUITE_COLUMNS,
      'DB ms/req (EXPLAIN)',
      `p99 < ${goal} ms`,
      ...(rate ? rateColumns(rate, goal) : []),
    ],
    results.map((r) => [
      ...leading.cells(r),
      ...suiteCells(r, backend),
      r.db_ms_per_request,
      (r.goal_met ? '✅' : '❌') + (r.failures > 0 ? ` · ${r.failures} failures` : ''),
      ...(rate ? rateCells(r.at_rate, goal, backend) : []),
    ]),
  );
  return [
    table,
    '',
    `DB ms/req: execution + planning of the request's statements in \`EXPLAIN ANALYZE\`; plans in \`${label}-plans.txt\`.`,
  ];
}

/** What every HTTP suite's JSON report holds besides its own figures. */
export async function suiteReport<V>(
  benchmark: string,
  parts: {
    backend: Backend;
    options: { scale: number; connections: number; duration: number; warmup: number };
    size: unknown;
    world: unknown;
    baseline: unknown;
    variants: V[];
    started: number;
  },
  extraLoad: Record<string, unknown> = {},
) {
  const { backend, options, size, world, baseline, variants, started } = parts;
  return {
    benchmark,
    backend,
    scale: options.scale,
    machine: await machineDescription(),
    size,
    world,
    load: {
      connections: options.connections,
      duration_s: options.duration,
      warmup_s: options.warmup,
      ...extraLoad,
    },
    baseline,
    variants,
    total_seconds: secondsSince(started),
  };
}
