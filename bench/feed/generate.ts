import type pg from 'pg';
import { TRACK_RANKS } from '../lib/catalogue';
import type { GeneratedWorld, GenerationSettings } from '../lib/database';
import type { Random } from '../lib/random';
import {
  apportion,
  countRows,
  dropIndexesForLoad,
  fillAggregates,
  finishLoad,
  gaussian,
  generateWorld,
  insertLikes,
  insertPlays,
  personName,
  randomUuid,
  storeCatalogueAndUsers,
  USER_PLANS,
  type UserPlan,
} from '../lib/world';

/** Issue 5's world at scale 1; friends per user do not scale (they shape each request). */
export interface FeedSize {
  users: number;
  friendsPerUser: number;
  plays: number;
  likes: number;
  tracks: number;
}

export function feedSize(scale: number): FeedSize {
  const users = Math.max(2, Math.round(10_000 * scale));
  return {
    users,
    // Both directions of each friendship come from ±offsets, so the count is even.
    friendsPerUser: Math.min(150, 2 * Math.floor((users - 1) / 2)),
    plays: Math.round(20_000_000 * scale),
    likes: Math.round(2_000_000 * scale),
    tracks: Math.max(100, Math.round(200_000 * scale)),
  };
}

export interface FeedWorld extends GeneratedWorld {
  size: FeedSize;
  /** The `±offset` friend graph: user n is friends with n ± each offset (mod users). */
  friendOffsets: number[];
}

/** Tables whose indexes are built once after the load (with the aggregates'). */
const DEFERRED = ['plays', 'saved_tracks', 'friendships'];
const DAY = 86_400_000;

function userPlans(random: Random, size: FeedSize, now: number): UserPlan[] {
  const activity = Array.from({ length: size.users }, () => Math.exp(gaussian(random)));
  const taste = Array.from({ length: size.users }, () => Math.exp(gaussian(random)));
  const plays = apportion(size.plays, activity);
  const poolSizes = plays.map((count) => Math.min(size.tracks, 300 + Math.round(count / 3)));
  const likes = capped(
    size.likes,
    taste,
    poolSizes.map((pool) => Math.floor(pool / 3)),
  );
  return plays.map((count, n) => {
    const lastAt = random.chance(0.85)
      ? now - random.int(60_000, 36 * 3_600_000)
      : now - random.int(2 * DAY, 200 * DAY);
    // Active between a month and three years, and never more than one play per 3 minutes.
    const span = Math.max(random.int(30, 1095) * DAY, count * 180_000);
    const firstAt = lastAt - span;
    const poolSize = poolSizes[n]!;
    const { name, username } = personName(random, n);
    return {
      id: randomUuid(random),
      username,
      name,
      plays: count,
      likes: likes[n]!,
      firstAt: new Date(firstAt),
      lastAt: new Date(lastAt),
      // Half of the users imported their history from before they joined.
      trackingSince: new Date(random.chance(0.5) ? firstAt + span * 0.3 : firstAt),
      poolOffset: random.int(0, size.tracks - 1),
      poolSize,
      poolSkew: 2,
      globalShare: 0.25,
    };
  });
}

/**
 * Splits `total` in proportion to `weights` without giving anyone more than their cap (a like is
 * a distinct track of their corner of the catalogue); what a cap cuts goes to the others.
 */
function capped(total: number, weights: readonly number[], caps: readonly number[]): number[] {
  const counts = weights.map(() => 0);
  let open = weights.map((_, i) => i);
  let left = total;
  while (left > 0 && open.length > 0) {
    const share = apportion(
      left,
      open.map((i) => weights[i]!),
    );
    open.forEach((i, k) => {
      counts[i] = Math.min(caps[i]!, counts[i]! + share[k]!);
    });
    left = total - counts.reduce((a, b) => a + b, 0);
    open = open.filter((i) => counts[i]! < caps[i]!);
  }
  return counts;
}

function friendOffsets(random: Random, size: FeedSize): number[] {
  const offsets = new Set<number>();
  const max = Math.floor((size.users - 1) / 2);
  while (offsets.size < size.friendsPerUser / 2) offsets.add(random.int(1, max));
  return [...offsets];
}

/** Chunks [from, to) of user numbers with about `per` plays each. */
function chunks(plans: readonly UserPlan[], per: number): [number, number][] {
  const result: [number, number][] = [];
  let from = 0;
  let sum = 0;
  plans.forEach((plan, n) => {
    sum += plan.plays;
    if (sum >= per) {
      result.push([from, n + 1]);
      from = n + 1;
      sum = 0;
    }
  });
  if (from < plans.length) result.push([from, plans.length]);
  return result;
}

/**
 * Fills an empty, migrated Earshot database with issue 5's world: users with `friendsPerUser`
 * friends each (both rows), their plays and likes, a catalogue, a few ignores, and the play
 * aggregates, then builds the indexes and runs VACUUM ANALYZE. `concurrency` connections work
 * in parallel (1 for the embedded database).
 */
export async function generateFeedWorld(
  pool: pg.Pool,
  size: FeedSize,
  options: GenerationSettings,
): Promise<FeedWorld> {
  return generateWorld(pool, size, options, async (loader) => {
    const { random, steps, now, clients, main, parallel } = loader;
    await main.query('SELECT setseed($1)', [((options.seed % 1000) / 1000) * 2 - 1]);
    const { catalogue, users: plans } = await storeCatalogueAndUsers(
      loader,
      size.tracks,
      () => userPlans(random, size, now),
      `users (${size.users})`,
    );
    // The tracks' keys stay: other tables' foreign keys depend on them.
    const { deferred, backfills } = await steps.run('drop indexes for the load', () =>
      dropIndexesForLoad(
        main,
        [...DEFERRED, 'tracks'],
        (index) => index.table === 'tracks' && index.constraint,
      ),
    );

    const offsets = friendOffsets(random, size);
    await steps.run(`friendships (${size.users} × ${size.friendsPerUser})`, () =>
      main.query(
        `INSERT INTO friendships (user_id, friend_id, since)
         SELECT a.id, b.id, greatest(a.first_at, b.first_at) + ((a.n + b.n) % 97) * interval '1 hour'
         FROM ${USER_PLANS} a
         CROSS JOIN unnest($1::int[]) AS d
         CROSS JOIN LATERAL (VALUES ((a.n + d) % $2), ((a.n - d + $2) % $2)) AS f(m)
         JOIN ${USER_PLANS} b ON b.n = f.m`,
        [offsets, size.users],
      ),
    );
    // Resetting the seed per connection keeps the data the same for a given concurrency.
    for (const [i, client] of clients.entries()) {
      await client.query('SELECT setseed($1)', [0.1 + i / 100]);
    }
    const playChunks = chunks(plans, 1_000_000);
    await steps.run(`plays (${size.plays}, ${playChunks.length} chunks)`, () =>
      parallel(
        playChunks.map(
          ([from, to]) =>
            (db) =>
              insertPlays(db, size.tracks, from, to),
        ),
      ),
    );
    await steps.run(`likes (~${size.likes})`, () =>
      parallel(
        chunks(plans, 4_000_000).map(
          ([from, to]) =>
            (db) =>
              insertLikes(db, size.tracks, from, to),
        ),
      ),
    );
    await fillAggregates(loader, backfills.groups);
    await steps.run('ignores', async () => {
      // A few songs and artists ignored for everyone, and some users' own (some reported).
      await main.query(
        `INSERT INTO global_ignored_tracks (uid)
         SELECT DISTINCT t.uid FROM ${TRACK_RANKS} r JOIN tracks t ON t.id = r.id
         WHERE r.rank % 400 = 7 ON CONFLICT DO NOTHING`,
      );
      await main.query(
        `INSERT INTO global_ignored_artists (artist_id)
         SELECT id FROM artists ORDER BY md5(id) LIMIT 3`,
      );
      await main.query(
        `INSERT INTO ignored_tracks (user_id, uid, reported)
         SELECT u.id, t.uid, bool_or(random() < 0.3)
         FROM ${USER_PLANS} u CROSS JOIN generate_series(1, 5) AS k
         JOIN ${TRACK_RANKS} r ON r.rank = (u.pool_offset + k * 7) % ${size.tracks}
         JOIN tracks t ON t.id = r.id
         WHERE u.n % 10 = 0 GROUP BY 1, 2`,
      );
      await main.query(
        `INSERT INTO ignored_artists (user_id, artist_id, reported)
         SELECT u.id, ta.artist_id, false
         FROM ${USER_PLANS} u JOIN ${TRACK_RANKS} r ON r.rank = u.pool_offset
         JOIN track_artists ta ON ta.track_id = r.id AND ta.position = 0
         WHERE u.n % 33 = 0`,
      );
    });
    await finishLoad(loader, deferred);
    await steps.run('VACUUM ANALYZE', async () => {
      const tables = await main.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relkind = 'r'
         ORDER BY pg_total_relation_size(c.oid) DESC`,
      );
      await parallel(
        tables.rows.map(
          ({ name }) =>
            (db) =>
              db.query(`VACUUM (ANALYZE) "${name}"`),
        ),
      );
    });
    const rows = await countRows(main, [
      'users',
      'friendships',
      'plays',
      'saved_tracks',
      'tracks',
      'albums',
      'artists',
      'user_track_stats',
      'user_track_days',
      'ignored_tracks',
      'global_ignored_tracks',
    ]);
    return { catalogue, rows, friendOffsets: offsets };
  });
}
