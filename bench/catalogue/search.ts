/**
 * `npm run bench:search`: issue 13's search benchmark. Generates (or reuses) a catalogue of
 * 1,000,000 tracks, 200,000 albums, 100,000 artists and 10,000 users who play them (× --scale),
 * starts Earshot on it and loads `GET /api/search` with one-word, two-word and prefix queries
 * beside `GET /api/status` in the same run. Visitors' searches: the stored catalogue only (a
 * signed-in search may also wait for Spotify, which is not what this measures). Writes figures
 * and query plans to bench/results/search-<backend>-x<scale>.*.
 */
import { searchQuery } from '@earshot/contract/search';
import { search } from '../../apps/server/src/services/search';
import type { Db } from '../../apps/server/src/db/client';
import { generatedDataOptions, readBackend, withGeneratedWorld } from '../lib/database';
import { formatPlans, planFigures } from '../lib/explain';
import { explainThenLoad } from '../lib/goal-suite';
import { readOptions } from '../lib/options';
import {
  baselineLine,
  loadAverageLine,
  markdownTable,
  metGoal,
  rateCells,
  rateColumns,
  SUITE_COLUMNS,
  suiteCells,
  suiteReport,
  writeReport,
} from '../lib/report';
import { generateSearchWorld, searchSize } from './search-world';

const options = readOptions({
  ...generatedDataOptions({ database: 'earshot_bench_search', seed: 1 }),
  duration: 20,
  warmup: 5,
  connections: 8,
  /**
   * Each variant again at this rate (0: not): 10,000 users, a tenth of them on at the busiest
   * hour, each searching every 2.5 minutes with three requests as the query is typed.
   */
  rate: 20,
});

const backend = readBackend(options.backend);
const size = searchSize(options.scale);
const label = `search-${backend}-x${options.scale}`;
const P99_GOAL_MS = 50;

/** Queries of each kind, sent in turn: common and rare words, as a user would type them. */
const VARIANTS = [
  { key: 'one-word', name: 'one word', queries: ['love', 'midnight', 'river', 'tiger', 'Corazón'] },
  {
    key: 'two-word',
    name: 'two words',
    queries: ['love night', 'golden river', 'summer rain', 'neon dreams', 'wild heart'],
  },
  { key: 'prefix', name: 'prefix', queries: ['lo', 'mid', 'riv', 'ti', 'cor'] },
] as const;

const pathOf = (q: string) => `/api/search?${new URLSearchParams({ q, limit: '50' }).toString()}`;

async function main() {
  const started = performance.now();
  console.log(`Search benchmark (${backend}, scale ${options.scale}):`, size);
  await withGeneratedWorld(
    'search',
    { ...options, backend },
    (pool, settings) => generateSearchWorld(pool, size, settings),
    async (bench, world) => {
      const { pool } = await bench.open();

      // The first query of each variant.
      const { plans, suite } = await explainThenLoad(
        bench,
        pool,
        options,
        VARIANTS.map((variant) => {
          const q = variant.queries[0];
          const { limit } = searchQuery.parse({ q });
          return {
            key: variant.key,
            name: variant.name,
            title: `GET ${pathOf(q)}`,
            targets: variant.queries.map((query) => ({ path: pathOf(query) })),
            call: (logged: Db) => search(logged, { text: q, limit, viewerId: undefined }),
          };
        }),
        10,
      );

      const results = VARIANTS.map((variant, i) => {
        const { sample, ...m } = suite.variants[i]!;
        const answer = sample as Record<'tracks' | 'albums' | 'artists' | 'users', unknown[]>;
        return {
          ...m,
          name: variant.name,
          queries: variant.queries,
          first_answer_counts: Object.fromEntries(
            Object.entries(answer).map(([type, list]) => [type, list.length]),
          ),
          p99_goal_ms: P99_GOAL_MS,
          // Requests that failed or never finished are no latency at all: the goal is not met.
          p99_goal_met: metGoal(m, P99_GOAL_MS),
          ...(m.at_rate && { p99_goal_met_at_rate: metGoal(m.at_rate, P99_GOAL_MS) }),
          failures: m.non_2xx + m.errors,
          ...planFigures(plans[i]!.plans),
        };
      });
      const report = await suiteReport('search', {
        backend,
        options,
        size,
        world,
        baseline: suite.baseline,
        variants: results,
        started,
      });
      const table = markdownTable(
        [
          'GET /api/search …',
          ...SUITE_COLUMNS,
          'goal',
          ...(options.rate ? rateColumns(options.rate, P99_GOAL_MS) : []),
        ],
        results.map((r) => [
          `${r.name} (${r.queries.join(', ')})`,
          ...suiteCells(r, backend),
          `${r.p99_goal_met ? '✅' : '❌'} p99 < ${r.p99_goal_ms}` +
            (r.failures > 0 ? ` · ${r.failures} failures` : ''),
          ...(options.rate ? rateCells(r.at_rate, P99_GOAL_MS, backend) : []),
        ]),
      );
      const markdown = [
        `# Search benchmark — ${backend}, scale ${options.scale}`,
        '',
        `${report.machine}. ${world.rows.tracks} tracks, ${world.rows.albums} albums, ${world.rows.artists} artists, ${world.rows.users} users (${world.rows.user_track_stats} user × track listening rows); generated in ${world.seconds} s.`,
        `autocannon: ${options.connections} connections, ${options.duration} s per variant after ${options.warmup} s of warm-up, the variant's queries in turn, as a visitor (the stored catalogue; no Spotify): as fast as answered (saturation)${options.rate ? `, then at a steady ${options.rate} req/s in an open loop (latency from when each request was due)` : ''}.`,
        baselineLine(suite.baseline, 'cpu'),
        loadAverageLine(suite.baseline),
        '',
        table,
        '',
        `Plans (\`EXPLAIN (ANALYZE, BUFFERS)\` of every statement of the first query of each variant): \`${label}-plans.txt\`.`,
      ].join('\n');
      await writeReport(label, { json: report, plans: formatPlans(plans), markdown });
    },
  );
}

await main();
