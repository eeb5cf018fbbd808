import type pg from 'pg';
import type { Backend, BenchDatabase } from './database';
import { explainRequests, formatPlans, type ExplainedRequest, type QueryPlan } from './explain';
import type { Measurement, Target } from './load';
import {
  baselineLine,
  goalFigures,
  goalTable,
  loadAverageLine,
  suiteReport,
  writeReport,
} from './report';
import { runSuiteOnEarshot, type SuiteResult } from './suite';
import type { withEarshot } from './server';

/**
 * `readOptions` defaults of a benchmark whose requests each have a p99 goal: 20 s of load per
 * variant after 5 s of warm-up, `connections` at once.
 */
export const goalSuiteOptions = ({
  connections,
  goal,
  rate,
}: {
  connections: number;
  goal: number;
  rate: number;
}) => ({
  duration: 20,
  warmup: 5,
  connections,
  /** The goal, in ms, for p99 of every variant. */
  goal,
  /**
   * Each variant again at this many requests per second (0: not): latency at a stated load,
   * beside the saturation figure of `connections` sent as fast as answered.
   */
  rate,
});

/** A result's name: `<benchmark>-<backend>-x<scale>`, and `-c<n>` when not one connection. */
export const goalSuiteLabel = (
  benchmark: string,
  backend: Backend,
  { scale, connections }: { scale: number; connections: number },
) => `${benchmark}-${backend}-x${scale}${connections === 1 ? '' : `-c${connections}`}`;

/** One request a benchmark loads over HTTP, and whose statements it EXPLAINs once beforehand. */
export interface GoalVariant extends ExplainedRequest {
  key: string;
  /** Sent in turn (e.g. one per viewer). */
  targets: Target[];
}

type Settings = Parameters<typeof withEarshot>[1] & { goal: number; rate?: number };

/** A variant's figures: its load, its ratio to the baseline and how it stands to the goal. */
type GoalResult = Measurement & { ratio_to_status: number; name: string } & ReturnType<
    typeof goalFigures
  >;

export interface GoalSuiteResult<R extends GoalResult> {
  plans: { title: string; plans: QueryPlan[] }[];
  baseline: SuiteResult['baseline'];
  results: R[];
}

/**
 * EXPLAINs one request of each variant (`pool` is the benchmark's open database), hands the
 * database to Earshot and loads every variant beside `GET /api/status` (see `runSuite`).
 */
export async function explainThenLoad(
  bench: BenchDatabase,
  pool: pg.Pool,
  settings: Parameters<typeof withEarshot>[1] & { rate?: number },
  variants: readonly GoalVariant[],
  nameWidth: number,
): Promise<{ plans: { title: string; plans: QueryPlan[] }[]; suite: SuiteResult }> {
  console.log('EXPLAIN (ANALYZE, BUFFERS) of each variant:');
  const plans = await explainRequests(pool, variants, { nameWidth });
  await bench.release();
  return { plans, suite: await runSuiteOnEarshot(bench, settings, variants) };
}

/**
 * `explainThenLoad`, then each variant's figures against the goal and what `describe` takes from
 * its first answer.
 */
export async function runGoalSuite<V extends GoalVariant, E extends object>(
  bench: BenchDatabase,
  pool: pg.Pool,
  settings: Settings,
  variants: readonly V[],
  { nameWidth, describe }: { nameWidth: number; describe: (variant: V, sample: unknown) => E },
): Promise<GoalSuiteResult<GoalResult & E>> {
  const { plans, suite } = await explainThenLoad(bench, pool, settings, variants, nameWidth);
  const results = variants.map((variant, i) => {
    const { sample, ...m } = suite.variants[i]!;
    return {
      ...m,
      name: variant.name,
      ...describe(variant, sample),
      ...goalFigures(m, settings.goal, plans[i]!.plans),
    };
  });
  return { plans, baseline: suite.baseline, results };
}

/**
 * Writes a goal suite's JSON, plans and markdown report: its title, the machine and `world`
 * (what the data holds), `load` (how it was loaded), the baseline and load-average lines, and the
 * table of every variant against the goal after its `leading` columns.
 */
export async function writeGoalReport<R extends GoalResult>(
  run: {
    benchmark: string;
    label: string;
    backend: Backend;
    options: Settings & { scale: number; connections: number; duration: number; warmup: number };
    size: unknown;
    world: unknown;
    started: number;
  },
  suite: GoalSuiteResult<R>,
  text: {
    /** The markdown's heading, before the backend and scale. */
    title: string;
    describeWorld: string;
    describeLoad: string;
    leading: { header: string[]; cells: (result: R) => (string | number)[] };
    extraLoad?: Record<string, unknown>;
  },
): Promise<void> {
  const { backend, options, label } = run;
  const report = await suiteReport(
    run.benchmark,
    {
      backend,
      options,
      size: run.size,
      world: run.world,
      baseline: suite.baseline,
      variants: suite.results,
      started: run.started,
    },
    text.extraLoad,
  );
  const markdown = [
    `# ${text.title} — ${backend}, scale ${options.scale}`,
    '',
    `${report.machine}. ${text.describeWorld}`,
    text.describeLoad,
    baselineLine(suite.baseline, 'latency'),
    loadAverageLine(suite.baseline),
    '',
    ...goalTable(text.leading, suite.results, {
      backend,
      goal: options.goal,
      label,
      rate: options.rate ?? 0,
    }),
  ].join('\n');
  await writeReport(label, { json: report, plans: formatPlans(suite.plans), markdown });
}
