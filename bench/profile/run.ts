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
import { generatedDataOptions, readBackend, withGeneratedWorld } from '../lib/database';
import { explainCalls, formatPlans, planFigures, slowest, type QueryPlan } from '../lib/explain';
import { readOptions } from '../lib/options';
import { markdownTable, SUITE_COLUMNS, suiteCells, writeReport, suiteReport } from '../lib/report';
import { withEarshot } from '../lib/server';
import { createSessions } from '../lib/sessions';
import { runSuite } from '../lib/suite';
import { FRIEND, generateProfileWorld, OWNER, profileSize, STRANGER } from './generate';

const options = readOptions({
  ...generatedDataOptions({ database: 'earshot_bench_profile', seed: 2 }),
  duration: 20,
  warmup: 5,
  /** One at a time: the goal is the time of one answer, not throughput under saturation. */
  connections: 1,
  /** The goal, in ms, for p99 of every variant. */
  goal: 100,
});

const backend = readBackend(options.backend);
const size = profileSize(options.scale);
const label = `profile-${backend}-x${options.scale}${options.connections === 1 ? '' : `-c${options.connections}`}`;

async function main() {
  const started = performance.now();
  console.log(`Profile benchmark (${backend}, scale ${options.scale}):`, size);
  await withGeneratedWorld(
    'profile',
    { ...options, backend },
    (pool, settings) => generateProfileWorld(pool, size, settings),
    async (bench, world) => {
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

      const suite = await withEarshot(bench, options, {}, (url, load) => {
        console.log(
          `autocannon: ${load.connections} connection(s), ${load.duration} s each (+${load.warmup} s warm-up)`,
        );
        return runSuite(
          url,
          variants.map((variant) => ({
            key: variant.key,
            name: variant.name,
            targets: [variant.cookie ? { path, headers: { cookie: variant.cookie } } : { path }],
          })),
          load,
        );
      });

      const results = variants.map((variant, i) => {
        const { sample, ...m } = suite.variants[i]!;
        const body = sample as { stats: { total_plays: number; top_songs_all_time: unknown } };
        return {
          ...m,
          name: variant.name,
          total_plays_shown: body.stats.total_plays,
          highlights: body.stats.top_songs_all_time !== null,
          goal_ms: options.goal,
          goal_met: m.latency_p99_ms < options.goal,
          failures: m.non_2xx + m.errors,
          ...planFigures(plans[i]!.plans),
        };
      });
      const report = await suiteReport('profile', {
        backend,
        options,
        size,
        world,
        baseline: suite.baseline,
        variants: results,
        started,
      });
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
          ['viewer', ...SUITE_COLUMNS, 'DB ms/req (EXPLAIN)', `p99 < ${options.goal} ms`],
          results.map((r) => [
            r.name,
            ...suiteCells(r, backend),
            r.db_ms_per_request,
            (r.goal_met ? '✅' : '❌') + (r.failures > 0 ? ` · ${r.failures} failures` : ''),
          ]),
        ),
        '',
        `DB ms/req: execution + planning of the request's statements in \`EXPLAIN ANALYZE\`; plans in \`${label}-plans.txt\`.`,
      ].join('\n');
      await writeReport(label, { json: report, plans: formatPlans(plans), markdown });
    },
  );
}

await main();
