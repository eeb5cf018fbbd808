/**
 * `npm run bench:discover`: issue 14's performance benchmark. Generates (or reuses) a database
 * with a viewer of 1,000,000 plays (× --scale) and 5,000 likes, 150 friends with 1,000,000 plays
 * between them and 300 followed artists; starts Earshot on it and loads each
 * `GET /api/suggestions/…` section as the viewer (Like Your On-Repeat with each `days`), beside
 * `GET /api/status`. Writes figures and query plans to bench/results/discover-<backend>-x<scale>.*.
 * On PostgreSQL a writer inserts the viewer's and friends' plays beside the load, as syncs do:
 * Like Your On-Repeat's long windows are kept by the plays trigger (decision 0039). The cost of
 * counting a window at its first read and of rolling it a day forward is reported beside.
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
import { sql } from 'drizzle-orm';
import { ROLLED_WINDOW_DAYS, rollSongWindow } from '../../apps/server/src/services/song-windows';
import { discoverSize, generateDiscoverWorld, VIEWER } from './generate';
import { standInForAutovacuum } from '../lib/postgres';
import { startPlaysWriter } from './writer';

const options = readOptions({
  ...generatedDataOptions({ database: 'discover_bench_perf', seed: 14 }),
  // One connection: the goal is the time of one answer, not throughput under saturation.
  ...goalSuiteOptions({ connections: 1, goal: 100, rate: 0 }),
  /** Items per section, as the Discover page asks. */
  limit: 20,
  /**
   * Plays the writer inserts each second (PostgreSQL): the viewer's (far above anyone's pace, to
   * load their windows' upkeep), and friends' (150 friends at ~70 plays an hour each, several
   * times a heavy listener's ~20).
   */
  viewerPlays: 1,
  friendPlays: 3,
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

/**
 * Milliseconds to count each rolled window at the viewer's first read, and to roll it a day
 * forward: the window is set back as it stood a day earlier (yesterday's floor, the plays of the
 * day since left added back), then read.
 */
async function timeWindowUpkeep(db: Db, viewerId: string) {
  const firstRead: number[] = [];
  const dayRoll: number[] = [];
  for (const days of ROLLED_WINDOW_DAYS) {
    await db.execute(sql`DELETE FROM user_song_window_floors
      WHERE user_id = ${viewerId} AND days = ${days}`);
    await db.execute(
      sql`DELETE FROM user_song_windows WHERE user_id = ${viewerId} AND days = ${days}`,
    );
    let started = performance.now();
    const floor = await rollSongWindow(db, viewerId, days);
    firstRead.push(Math.round(performance.now() - started));
    await db.execute(sql`
      INSERT INTO user_song_windows AS w (user_id, days, uid, plays)
      SELECT ${viewerId}, ${days}, coalesce(ver.uid, d.track_id), sum(d.plays)::int
      FROM user_track_days d LEFT JOIN tracks ver ON ver.id = d.track_id AND ver.uid <> ver.id
      WHERE d.user_id = ${viewerId} AND d.day = ${floor}::date
      GROUP BY 3
      ON CONFLICT (user_id, days, uid) DO UPDATE SET plays = w.plays + excluded.plays`);
    await db.execute(sql`UPDATE user_song_window_floors SET floor = floor - 1
      WHERE user_id = ${viewerId} AND days = ${days}`);
    started = performance.now();
    await rollSongWindow(db, viewerId, days);
    dayRoll.push(Math.round(performance.now() - started));
  }
  // As autovacuum would have, after these bulk writes and a reused database's earlier runs
  // (this machine's PostgreSQL runs without it): the planner knows the windows' size and reads
  // their index in order, and index-only scans find their pages all-visible.
  await db.execute(sql`VACUUM ANALYZE`);
  return { firstRead, dayRoll };
}

async function main() {
  const started = performance.now();
  console.log(`Discover benchmark (${backend}, scale ${options.scale}):`, size);
  await withGeneratedWorld(
    'discover',
    { ...options, backend },
    (pool, settings) => generateDiscoverWorld(pool, size, settings),
    async (bench, world) => {
      const { pool, db } = await bench.open();
      const viewer = await pool.query<{ id: string }>(
        `SELECT id FROM users WHERE spotify_id = 'bench-${VIEWER}'`,
      );
      const viewerId = viewer.rows[0]!.id;
      const [cookie] = (await createSessions(pool, [viewerId])) as [string];
      const windows = await timeWindowUpkeep(db, viewerId);
      console.log('Rolled windows (ms):', windows);
      const writer =
        backend === 'postgres'
          ? await startPlaysWriter(bench.serverEnv.DATABASE_URL!, viewerId, options)
          : undefined;
      const autovacuum =
        backend === 'postgres'
          ? await standInForAutovacuum(bench.serverEnv.DATABASE_URL!)
          : undefined;

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
      const written = await writer?.stop();
      await autovacuum?.stop();
      const run = {
        benchmark: 'discover',
        label,
        backend,
        options,
        size,
        world: { ...world, windows, written },
        started,
      };
      await writeGoalReport(run, suite, {
        title: 'Discover benchmark',
        extraLoad: { limit: options.limit },
        describeWorld: `The viewer: ${world.rows.viewer_distinct_tracks} distinct tracks, ${size.viewerPlays} plays, ${world.rows.viewer_likes} likes, ${size.followedArtists} followed artists (${world.rows.viewer_followed_new_releases} releases of the last 180 days); ${size.friends} friends with ${size.friendPlays} plays between them; ${world.rows.plays} plays in all, generated in ${world.seconds} s.`,
        describeLoad: `autocannon: ${options.connections} connection(s), ${options.duration} s per section after ${options.warmup} s of warm-up, \`limit=${options.limit}\`, as the viewer. ${written ? `Beside it a writer inserted plays each second (the viewer's: ${options.viewerPlays}, friends': ${options.friendPlays}) (${written.plays} plays in ${written.batches} statements, the slowest ${written.slowestBatchMs} ms)${autovacuum?.standingIn ? ', and ANALYZE ran every 15 s as autovacuum would (off on this server)' : ''}.` : 'No writer ran (PGlite serves one process).'} Like Your On-Repeat's rolled windows (${ROLLED_WINDOW_DAYS.join(' and ')} days): counted at the viewer's first read in ${windows.firstRead.join(' / ')} ms, rolled a day forward in ${windows.dayRoll.join(' / ')} ms.`,
        leading: { header: ['section', 'items'], cells: (r) => [r.name, r.items] },
      });
    },
  );
}

await main();
