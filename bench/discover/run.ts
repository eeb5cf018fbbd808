/**
 * `npm run bench:discover`: issue 14's performance benchmark. Generates (or reuses) a database
 * with a viewer of 1,000,000 plays (× --scale) and 5,000 likes, 150 friends with 1,000,000 plays
 * between them and 300 followed artists; starts Earshot on it and loads each
 * `GET /api/suggestions/…` section as the viewer (Like Your On-Repeat with each `days`), beside
 * `GET /api/status`. Writes figures and query plans to bench/results/discover-<backend>-x<scale>.*.
 * The sections read no cache, so no writer runs beside them: every request reads the database.
 */
import { ON_REPEAT_DAYS } from '@earshot/contract/suggestions';
import {
  friendsFavorites,
  likeOnRepeat,
  rediscoverLikes,
  unheardFromFollowed,
} from '../../apps/server/src/services/suggestions';
import type { Db } from '../../apps/server/src/db/client';
import { generatedDataOptions, readBackend, withGeneratedWorld } from '../lib/database';
import { goalSuiteLabel, goalSuiteOptions, runGoalSuite, writeGoalReport } from '../lib/goal-suite';
import { readOptions } from '../lib/options';
import { createSessions } from '../lib/sessions';
import { discoverSize, generateDiscoverWorld, VIEWER } from './generate';

const options = readOptions({
  ...generatedDataOptions({ database: 'discover_bench_perf', seed: 14 }),
  // One connection: the goal is the time of one answer, not throughput under saturation.
  ...goalSuiteOptions({ connections: 1, goal: 100, rate: 0 }),
  /** Items per section, as the Discover page asks. */
  limit: 20,
});

const backend = readBackend(options.backend);
const size = discoverSize(options.scale);
const label = goalSuiteLabel('discover', backend, options);

interface Section {
  key: string;
  name: string;
  path: string;
  call: (db: Db, viewerId: string) => Promise<unknown>;
}

const sections: Section[] = [
  {
    key: 'unheard-from-followed',
    name: 'New from Followed Artists',
    path: `/api/suggestions/unheard-from-followed?limit=${options.limit}`,
    call: (db, viewer) => unheardFromFollowed(db, viewer, options.limit),
  },
  {
    key: 'like-on-repeat',
    name: 'Like Your On-Repeat, all time',
    path: `/api/suggestions/like-on-repeat?limit=${options.limit}`,
    call: (db, viewer) => likeOnRepeat(db, viewer, options.limit, undefined),
  },
  ...ON_REPEAT_DAYS.map((days) => ({
    key: `like-on-repeat-${days}`,
    name: `Like Your On-Repeat, ${days} days`,
    path: `/api/suggestions/like-on-repeat?limit=${options.limit}&days=${days}`,
    call: (db: Db, viewer: string) => likeOnRepeat(db, viewer, options.limit, days),
  })),
  {
    key: 'friends-favorites',
    name: 'Popular with Friends',
    path: `/api/suggestions/friends-favorites?limit=${options.limit}`,
    call: (db, viewer) => friendsFavorites(db, viewer, options.limit),
  },
  {
    key: 'rediscover-likes',
    name: 'Rediscover Likes',
    path: `/api/suggestions/rediscover-likes?limit=${options.limit}`,
    call: (db, viewer) => rediscoverLikes(db, viewer, options.limit),
  },
];

async function main() {
  const started = performance.now();
  console.log(`Discover benchmark (${backend}, scale ${options.scale}):`, size);
  await withGeneratedWorld(
    'discover',
    { ...options, backend },
    (pool, settings) => generateDiscoverWorld(pool, size, settings),
    async (bench, world) => {
      const { pool } = await bench.open();
      const viewer = await pool.query<{ id: string }>(
        `SELECT id FROM users WHERE spotify_id = 'bench-${VIEWER}'`,
      );
      const viewerId = viewer.rows[0]!.id;
      const [cookie] = (await createSessions(pool, [viewerId])) as [string];

      // The statements of one request per section, as the route runs them.
      const suite = await runGoalSuite(
        bench,
        pool,
        options,
        sections.map((section) => ({
          key: section.key,
          name: section.name,
          title: `GET ${section.path}`,
          path: section.path,
          targets: [{ path: section.path, headers: { cookie } }],
          call: (db: Db) => section.call(db, viewerId),
        })),
        {
          nameWidth: 32,
          describe: (section, sample) => ({
            path: section.path,
            items: (sample as { items: unknown[] }).items.length,
          }),
        },
      );
      const run = { benchmark: 'discover', label, backend, options, size, world, started };
      await writeGoalReport(run, suite, {
        title: 'Discover benchmark',
        extraLoad: { limit: options.limit },
        describeWorld: `The viewer: ${world.rows.viewer_distinct_tracks} distinct tracks, ${size.viewerPlays} plays, ${world.rows.viewer_likes} likes, ${size.followedArtists} followed artists (${world.rows.viewer_followed_new_releases} releases of the last 180 days); ${size.friends} friends with ${size.friendPlays} plays between them; ${world.rows.plays} plays in all, generated in ${world.seconds} s.`,
        describeLoad: `autocannon: ${options.connections} connection(s), ${options.duration} s per section after ${options.warmup} s of warm-up, \`limit=${options.limit}\`, as the viewer. No writer runs: the sections read no cache.`,
        leading: { header: ['section', 'items'], cells: (r) => [r.name, r.items] },
      });
    },
  );
}

await main();
