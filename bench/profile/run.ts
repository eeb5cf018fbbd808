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
import type { Db } from '../../apps/server/src/db/client';
import { generatedDataOptions, readBackend, withGeneratedWorld } from '../lib/database';
import { goalSuiteLabel, goalSuiteOptions, runGoalSuite, writeGoalReport } from '../lib/goal-suite';
import { readOptions } from '../lib/options';
import { createSessions } from '../lib/sessions';
import { FRIEND, generateProfileWorld, OWNER, profileSize, STRANGER } from './generate';

const options = readOptions({
  ...generatedDataOptions({ database: 'earshot_bench_profile', seed: 2 }),
  // One connection: the goal is the time of one answer, not throughput under saturation.
  ...goalSuiteOptions({ connections: 1, goal: 100, rate: 0 }),
});

const backend = readBackend(options.backend);
const size = profileSize(options.scale);
const label = goalSuiteLabel('profile', backend, options);

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
      const suite = await runGoalSuite(
        bench,
        pool,
        options,
        variants.map((variant) => ({
          key: variant.key,
          name: variant.name,
          title: `GET ${path} — ${variant.name}`,
          targets: [variant.cookie ? { path, headers: { cookie: variant.cookie } } : { path }],
          call: async (db: Db) => {
            const viewer = variant.cookie
              ? (await userForSession(db, hashSessionId(variant.cookie.split('=')[1]!)))!.user
              : null;
            const user = (await findUserByHandle(db, owner.username))!;
            const friendship = viewer ? await friendshipStatus(db, viewer.id, user.id) : null;
            const isFriend = friendship === 'friends';
            if (isFriend && viewer) await tasteMatch(db, viewer.id, user.id);
            return profileStats(db, user.id, isFriend || friendship === 'self');
          },
        })),
        {
          nameWidth: 28,
          describe: (_variant, sample) => {
            const body = sample as { stats: { total_plays: number; top_songs_all_time: unknown } };
            return {
              total_plays_shown: body.stats.total_plays,
              highlights: body.stats.top_songs_all_time !== null,
            };
          },
        },
      );
      const run = { benchmark: 'profile', label, backend, options, size, world, started };
      await writeGoalReport(run, suite, {
        title: 'Profile benchmark',
        describeWorld: `The profiled user: ${world.rows.owner_distinct_tracks} distinct tracks, ${size.ownerPlays} plays (the friend ${size.friendPlays}); ${world.rows.plays} plays in all, generated in ${world.seconds} s.`,
        describeLoad: `autocannon: ${options.connections} connection(s), ${options.duration} s per variant after ${options.warmup} s of warm-up; \`GET ${path}\`.`,
        leading: { header: ['viewer'], cells: (r) => [r.name] },
      });
    },
  );
}

await main();
