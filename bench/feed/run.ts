/**
 * `npm run bench:feed`: issue 5's feed benchmark. Generates (or reuses) a database with
 * 10,000 users × 150 friends, 20 M plays and 2 M likes (× --scale), starts Earshot on it, and
 * loads `GET /api/recent` in each scope with autocannon beside `GET /api/status` in the same
 * run. Writes figures and query plans to bench/results/feed-<backend>-x<scale>.*.
 */
import { activityQuery } from '@earshot/contract/activity';
import { recentActivity, type ActivityParams } from '../../apps/server/src/services/activity';
import { hashSessionId, userForSession } from '../../apps/server/src/services/sessions';
import type { UserRow } from '../../apps/server/src/db/schema/users';
import { generatedDataOptions, readBackend, withGeneratedWorld } from '../lib/database';
import { explainRequests, formatPlans, planFigures } from '../lib/explain';
import { runSuite } from '../lib/suite';
import { readOptions } from '../lib/options';
import {
  baselineLine,
  loadAverageLine,
  markdownTable,
  SUITE_COLUMNS,
  suiteCells,
  writeReport,
  suiteReport,
} from '../lib/report';
import { withEarshot } from '../lib/server';
import { createSessions } from '../lib/sessions';
import { feedSize, generateFeedWorld } from './generate';

const options = readOptions({
  ...generatedDataOptions({ database: 'earshot_bench_feed', seed: 1 }),
  duration: 30,
  warmup: 5,
  connections: 16,
  /** Users whose feeds are requested in turn. */
  viewers: 64,
  word: 'love',
  /** Comma-separated variant keys to run (all when empty): all,friends,user,q-word,q-date,before. */
  only: '',
  /** Run with Earshot's feed page cache off (ACTIVITY_CACHE_MB=0): every request reads the database. */
  noCache: false,
});

const backend = readBackend(options.backend);
const size = feedSize(options.scale);
const label = `feed-${backend}-x${options.scale}${options.noCache ? '-nocache' : ''}`;

interface Viewer {
  id: string;
  cookie: string;
  friend: string;
  deepCursor: string;
}

interface Variant {
  key: string;
  name: string;
  query: (viewer: Viewer) => Record<string, string>;
  /** p99 goal in ms. */
  p99Goal: number;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The API's opaque cursor, as `next_before` carries it: the last item's time, user and track. */
const cursorAfter = (row: { played_at: Date; user_id: string; track_id: string }) =>
  Buffer.from(`${row.played_at.getTime()}.${row.user_id}.${row.track_id}`, 'utf8').toString(
    'base64url',
  );

function variants(generatedAt: Date): Variant[] {
  const month = new Date(generatedAt);
  month.setUTCMonth(month.getUTCMonth() - 6);
  const monthQuery = `${MONTHS[month.getUTCMonth()]} ${month.getUTCFullYear()}`;
  const list: Variant[] = [
    { key: 'all', name: 'all (viewer + friends)', query: () => ({}), p99Goal: 50 },
    {
      key: 'friends',
      name: 'friends (include_me=false)',
      query: () => ({ include_me: 'false' }),
      p99Goal: 50,
    },
    {
      key: 'user',
      name: 'one user (user=friend)',
      query: (v) => ({ user: v.friend }),
      p99Goal: 50,
    },
    {
      key: 'q-word',
      name: `q=${options.word}`,
      query: () => ({ q: options.word }),
      p99Goal: 150,
    },
    { key: 'q-date', name: `q=${monthQuery}`, query: () => ({ q: monthQuery }), p99Goal: 150 },
    {
      key: 'before',
      name: 'before (1 year deep)',
      query: (v) => ({ before: v.deepCursor }),
      p99Goal: 50,
    },
  ];
  const only = options.only.split(',').filter(Boolean);
  return only.length > 0 ? list.filter((variant) => only.includes(variant.key)) : list;
}

const pathOf = (query: Record<string, string>) => {
  const search = new URLSearchParams(query).toString();
  return `/api/recent${search ? `?${search}` : ''}`;
};

/** The service's parameters for a query string, as the route parses them. */
function paramsOf(query: Record<string, string>): ActivityParams {
  const { limit, before, include_me, user, q } = activityQuery.parse(query);
  return { limit, before, includeMe: include_me, user, q };
}

/** The server's feed page cache counters (hit, miss, bypass) from its Prometheus metrics. */
async function cacheCounts(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(
    /^earshot_activity_cache_requests_total\{result="(\w+)"\} (\d+)/gm,
  )) {
    counts[match[1]!] = Number(match[2]);
  }
  return counts;
}

async function main() {
  const started = performance.now();
  console.log(`Feed benchmark (${backend}, scale ${options.scale}):`, size);
  await withGeneratedWorld(
    'feed',
    { ...options, backend },
    (pool, settings) => generateFeedWorld(pool, size, settings),
    async (bench, world) => {
      const { pool } = await bench.open();

      // Viewers spread over the user numbers; each has a friend and a cursor a year deep.
      const count = Math.min(options.viewers, size.users);
      const spotifyIds = Array.from(
        { length: count },
        (_, k) => `bench-${Math.floor((k * size.users) / count)}`,
      );
      const users = await pool.query<{ id: string }>(
        `SELECT u.id FROM unnest($1::text[]) WITH ORDINALITY AS s(spotify_id, k)
       JOIN users u ON u.spotify_id = s.spotify_id ORDER BY s.k`,
        [spotifyIds],
      );
      const ids = users.rows.map((row) => row.id);
      const cookies = await createSessions(pool, ids);
      const generatedAt = new Date(world.generatedAt);
      const yearAgo = new Date(generatedAt.getTime() - 365 * 86_400_000);
      const viewers: Viewer[] = [];
      for (const [k, id] of ids.entries()) {
        const friend = await pool.query<{ username: string }>(
          `SELECT u.username FROM friendships f JOIN users u ON u.id = f.friend_id
         WHERE f.user_id = $1 ORDER BY md5(u.id::text) LIMIT 1`,
          [id],
        );
        const deep = await pool.query<{ played_at: Date; user_id: string; track_id: string }>(
          `SELECT p.played_at, p.user_id, p.track_id
         FROM (SELECT friend_id AS id FROM friendships WHERE user_id = $1 UNION ALL SELECT $1) s
         CROSS JOIN LATERAL (SELECT played_at, user_id, track_id FROM plays
                             WHERE user_id = s.id AND played_at < $2
                             ORDER BY played_at DESC LIMIT 1) p
         ORDER BY p.played_at DESC, p.user_id DESC LIMIT 1`,
          [id, yearAgo],
        );
        viewers.push({
          id,
          cookie: cookies[k]!,
          friend: friend.rows[0]!.username,
          deepCursor: deep.rows[0] ? cursorAfter(deep.rows[0]) : '',
        });
      }
      const list = variants(generatedAt);

      // Plans of every statement of one request per variant (session lookup included).
      console.log('EXPLAIN (ANALYZE, BUFFERS) of each variant, first viewer:');
      const first = viewers[0]!;
      const plans = await explainRequests(
        pool,
        list.map((variant) => {
          const query = variant.query(first);
          return {
            name: variant.name,
            title: `GET ${pathOf(query)} — ${variant.name}`,
            call: async (logged) => {
              const session = await userForSession(
                logged,
                hashSessionId(first.cookie.split('=')[1]!),
              );
              return recentActivity(logged, session!.user as UserRow, paramsOf(query));
            },
          };
        }),
        { nameWidth: 28, withTotal: true },
      );
      await bench.release();

      const { suite, cache } = await withEarshot(
        bench,
        options,
        options.noCache ? { ACTIVITY_CACHE_MB: '0' } : {},
        async (url, load) => {
          console.log(
            `autocannon: ${load.connections} connections, ${load.duration} s each (+${load.warmup} s warm-up), ${viewers.length} viewers in turn`,
          );
          const suite = await runSuite(
            url,
            list.map((variant) => ({
              key: variant.key,
              name: variant.name,
              targets: viewers.map((v) => ({
                path: pathOf(variant.query(v)),
                headers: { cookie: v.cookie },
              })),
            })),
            load,
          );
          return { suite, cache: await cacheCounts(url) };
        },
      );

      const results = list.map((variant, i) => {
        const { sample, ...m } = suite.variants[i]!;
        return {
          ...m,
          name: variant.name,
          example: pathOf(variant.query(first)),
          items_on_first_page: (sample as { items: unknown[] }).items.length,
          p99_goal_ms: variant.p99Goal,
          throughput_goal_met: m.ratio_to_status >= 0.3,
          p99_goal_met: m.latency_p99_ms < variant.p99Goal,
          failures: m.non_2xx + m.errors,
          ...planFigures(plans[i]!.plans),
        };
      });
      const report = {
        ...(await suiteReport(
          'feed',
          { backend, options, size, world, baseline: suite.baseline, variants: results, started },
          { viewers: viewers.length },
        )),
        activity_cache: cache,
      };
      const table = markdownTable(
        ['GET /api/recent …', ...SUITE_COLUMNS, 'goals'],
        results.map((r) => [
          r.name,
          ...suiteCells(r, backend),
          `${r.throughput_goal_met ? '✅' : '❌'} ≥ 0.30 · ${r.p99_goal_met ? '✅' : '❌'} p99 < ${r.p99_goal_ms}` +
            (r.failures > 0 ? ` · ${r.failures} failures` : ''),
        ]),
      );
      const markdown = [
        `# Feed benchmark — ${backend}, scale ${options.scale}`,
        '',
        `${report.machine}. ${size.users} users × ${size.friendsPerUser} friends, ${world.rows.plays} plays, ${world.rows.saved_tracks} likes, ${world.rows.tracks} tracks; generated in ${world.seconds} s.`,
        `autocannon: ${options.connections} connections, ${options.duration} s per variant after ${options.warmup} s of warm-up, ${viewers.length} viewers in turn.`,
        baselineLine(suite.baseline, 'cpu'),
        `Feed page cache (${options.noCache ? 'off' : `on, ${viewers.length} viewers × ${list.length} variants`}): ${
          Object.entries(cache)
            .map(([result, count]) => `${count} ${result}`)
            .join(', ') || 'no requests'
        }; ${
          options.noCache
            ? 'every request reads the database: the figures show the cost of reading a page.'
            : "no writes happen during the run, so after each viewer's first request every page comes from memory — the figures show the cost of a page served from memory; `--no-cache` shows the cost of reading one."
        }`,
        loadAverageLine(
          suite.baseline,
          ' (other work on the machine takes CPU from both the server and the database)',
        ),
        '',
        table,
        '',
        `CPU ms/req: CPU time the server process and its PostgreSQL backends used per request during the measurement. Plans (\`EXPLAIN (ANALYZE, BUFFERS)\` of every statement of one request per variant, first viewer): \`${label}-plans.txt\`.`,
      ].join('\n');
      await writeReport(label, { json: report, plans: formatPlans(plans), markdown });
    },
  );
}

await main();
