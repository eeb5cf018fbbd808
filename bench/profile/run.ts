/**
 * `npm run bench:profile`: issue 4's profile benchmark. Generates (or reuses) a database with a
 * listener of 1,000,000 plays (× --scale) over ~30,000 distinct tracks, their friend and a
 * stranger; starts Earshot on it and loads `GET /api/user/{username}/public` as the owner, the
 * friend (both with highlights), a logged-in stranger and a visitor, beside `GET /api/status`.
 * Writes figures and query plans to bench/results/profile-<backend>-x<scale>.*.
 */
import { hashSessionId, userForSession } from '../../apps/server/src/services/sessions';
import { friendshipStatus } from '../../apps/server/src/services/social';
import { profileStats, tasteMatch } from '../../apps/server/src/services/stats';
import { findUserByHandle } from '../../apps/server/src/services/users';
import { openBenchDatabase, type Backend } from '../lib/database';
import { explainCalls, formatPlans, slowest, type QueryPlan } from '../lib/explain';
import type { Measurement } from '../lib/load';
import { readOptions } from '../lib/options';
import { machineDescription, markdownTable, writeJson, writeResult } from '../lib/report';
import { benchProcesses, postgresBackends, startEarshot } from '../lib/server';
import { createSessions } from '../lib/sessions';
import { secondsSince } from '../lib/steps';
import { runSuite } from '../lib/suite';
import {
  FRIEND,
  generateProfileWorld,
  OWNER,
  profileSize,
  STRANGER,
  type ProfileWorld,
} from './generate';

const options = readOptions({
  scale: 1,
  backend: 'postgres',
  serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: 'earshot_bench_profile',
  dataDir: '',
  reuse: false,
  keep: false,
  seed: 2,
  duration: 20,
  warmup: 5,
  /** One at a time: the goal is the time of one answer, not throughput under saturation. */
  connections: 1,
  /** The goal, in ms, for p99 of every variant. */
  goal: 100,
});

const backend = options.backend as Backend;
if (backend !== 'postgres' && backend !== 'pglite') throw new Error('--backend postgres|pglite');
const size = profileSize(options.scale);
const label = `profile-${backend}-x${options.scale}${options.connections === 1 ? '' : `-c${options.connections}`}`;
const round2 = (n: number) => Math.round(n * 100) / 100;

async function main() {
  const started = performance.now();
  console.log(`Profile benchmark (${backend}, scale ${options.scale}):`, size);
  const bench = await openBenchDatabase({
    backend,
    serverUrl: options.serverUrl,
    name: backend === 'postgres' ? options.database : `earshot-bench-profile-x${options.scale}`,
    dataDir: options.dataDir,
    reuse: options.reuse,
    expect: { scale: options.scale, seed: options.seed },
    poolSize: 4,
  });
  try {
    let world = bench.meta?.world as ProfileWorld | undefined;
    if (!world) {
      console.log('Generating:');
      const { pool } = await bench.open();
      const generationStart = performance.now();
      world = await generateProfileWorld(pool, size, {
        seed: options.seed,
        concurrency: backend === 'postgres' ? 2 : 1,
        ...(backend === 'pglite' ? { workMem: '256MB', maintenanceWorkMem: '512MB' } : {}),
      });
      world.seconds = secondsSince(generationStart);
      console.log(`Generated in ${world.seconds} s:`, world.rows);
      await bench.saveMeta({ scale: options.scale, seed: options.seed, world });
    } else {
      console.log(`Reusing the data generated ${world.generatedAt} (in ${world.seconds} s).`);
    }
    const { pool } = await bench.open();
    const users = await pool.query<{ id: string; username: string }>(
      `SELECT id, username FROM users WHERE spotify_id = ANY($1::text[]) ORDER BY spotify_id`,
      [[OWNER, FRIEND, STRANGER].map((n) => `bench-${n}`)],
    );
    const [owner, friend, stranger] = users.rows as [
      { id: string; username: string },
      { id: string; username: string },
      { id: string; username: string },
    ];
    const [ownerCookie, friendCookie, strangerCookie] = (await createSessions(pool, [
      owner.id,
      friend.id,
      stranger.id,
    ])) as [string, string, string];
    const path = `/api/user/${encodeURIComponent(owner.username)}/public`;
    const variants = [
      { key: 'owner', name: 'as the owner (highlights)', cookie: ownerCookie },
      { key: 'friend', name: 'as a friend (highlights)', cookie: friendCookie },
      { key: 'stranger', name: 'as a logged-in stranger', cookie: strangerCookie },
      { key: 'visitor', name: 'as a visitor (no login)', cookie: undefined },
    ];

    // The statements of one request per variant, as the route runs them.
    console.log('EXPLAIN (ANALYZE, BUFFERS) of each variant:');
    const plans: { title: string; plans: QueryPlan[] }[] = [];
    for (const variant of variants) {
      const statements = await explainCalls(pool, async (db) => {
        const viewer = variant.cookie
          ? (await userForSession(db, hashSessionId(variant.cookie.split('=')[1]!)))!.user
          : null;
        const user = (await findUserByHandle(db, owner.username))!;
        const friendship = viewer ? await friendshipStatus(db, viewer.id, user.id) : null;
        const isFriend = friendship === 'friends';
        if (isFriend && viewer) await tasteMatch(db, viewer.id, user.id);
        return profileStats(db, user.id, isFriend || friendship === 'self');
      });
      console.log(
        `  ${variant.name.padEnd(28)} ${statements.length} statements, slowest ${slowest(statements)!.execution_ms} ms`,
      );
      plans.push({ title: `GET ${path} — ${variant.name}`, plans: statements });
    }
    await bench.release();

    console.log('Starting Earshot…');
    const server = await startEarshot(bench.serverEnv);
    const backends =
      backend === 'postgres'
        ? await postgresBackends(options.serverUrl, options.database)
        : undefined;
    const load = {
      connections: options.connections,
      duration: options.duration,
      warmup: options.warmup,
      processes: benchProcesses(server.pid, backends),
    };
    console.log(
      `autocannon: ${load.connections} connection(s), ${load.duration} s each (+${load.warmup} s warm-up)`,
    );
    const suite = await runSuite(
      server.url,
      variants.map((variant) => ({
        key: variant.key,
        name: variant.name,
        targets: [variant.cookie ? { path, headers: { cookie: variant.cookie } } : { path }],
      })),
      load,
    ).finally(async () => {
      await server.stop();
      await backends?.close();
    });

    const results = variants.map((variant, i) => {
      const { sample, ...m } = suite.variants[i]!;
      const statements = plans[i]!.plans;
      const body = sample as { stats: { total_plays: number; top_songs_all_time: unknown } };
      return {
        ...m,
        name: variant.name,
        total_plays_shown: body.stats.total_plays,
        highlights: body.stats.top_songs_all_time !== null,
        goal_ms: options.goal,
        goal_met: m.latency_p99_ms < options.goal,
        failures: m.non_2xx + m.errors,
        statements: statements.length,
        main_query_ms: slowest(statements)!.execution_ms,
        db_ms_per_request: round2(
          statements.reduce((s, p) => s + p.execution_ms + p.planning_ms, 0),
        ),
      };
    });
    const report = {
      benchmark: 'profile',
      backend,
      scale: options.scale,
      machine: await machineDescription(),
      size,
      world,
      load: {
        connections: options.connections,
        duration_s: options.duration,
        warmup_s: options.warmup,
      },
      baseline: suite.baseline,
      variants: results,
      total_seconds: secondsSince(started),
    };
    await writeJson(`${label}.json`, report);
    await writeResult(`${label}-plans.txt`, formatPlans(plans));
    const cpu = (m: Measurement, name: string) => m.cpu_ms_per_request[name] ?? 0;
    const { first: before, last: after } = suite.baseline;
    const markdown = [
      `# Profile benchmark — ${backend}, scale ${options.scale}`,
      '',
      `${report.machine}. The profiled user: ${world.rows.owner_distinct_tracks} distinct tracks, ${size.ownerPlays} plays (the friend ${size.friendPlays}); ${world.rows.plays} plays in all, generated in ${world.seconds} s.`,
      `autocannon: ${options.connections} connection(s), ${options.duration} s per variant after ${options.warmup} s of warm-up; \`GET ${path}\`.`,
      `Baseline \`GET /api/status\`: ${before.requests_per_sec} req/s before, ${after.requests_per_sec} after (p50 ${before.latency_p50_ms} ms, p99 ${before.latency_p99_ms} / ${after.latency_p99_ms} ms).`,
      `Machine load average during the run: ${before.load_average[0]} → ${after.load_average[1]}.`,
      '',
      markdownTable(
        [
          'viewer',
          'req/s',
          'p50 ms',
          'p99 ms',
          '× status',
          'CPU ms/req (server + PG)',
          'DB ms/req (EXPLAIN)',
          `p99 < ${options.goal} ms`,
        ],
        results.map((r) => [
          r.name,
          r.requests_per_sec,
          r.latency_p50_ms,
          r.latency_p99_ms,
          r.ratio_to_status,
          backend === 'postgres'
            ? `${cpu(r, 'server')} + ${cpu(r, 'postgres')}`
            : `${cpu(r, 'server')} (database inside)`,
          r.db_ms_per_request,
          (r.goal_met ? '✅' : '❌') + (r.failures > 0 ? ` · ${r.failures} failures` : ''),
        ]),
      ),
      '',
      `DB ms/req: execution + planning of the request's statements in \`EXPLAIN ANALYZE\`; plans in \`${label}-plans.txt\`.`,
    ].join('\n');
    await writeResult(`${label}.md`, markdown);
    console.log(`\n${markdown}\n`);
  } finally {
    if (!options.keep) await bench.destroy();
    else await bench.release();
  }
}

await main();
