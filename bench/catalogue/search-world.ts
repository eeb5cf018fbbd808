import type pg from 'pg';
import { generateCatalogue, TRACK_RANKS } from '../lib/catalogue';
import type { GeneratedWorld, GenerationSettings } from '../lib/database';
import { indexDefinitions } from '../lib/postgres';
import {
  countRows,
  finishLoad,
  generateWorld,
  personName,
  randomUuid,
  storeUsers,
  USER_PLANS,
  type UserPlan,
} from '../lib/world';

/** Issue 13's search catalogue at scale 1. */
export interface SearchSize {
  tracks: number;
  albums: number;
  artists: number;
  users: number;
  /** Distinct tracks each user has played: who listens to what ranks results. */
  tracksPerUser: number;
  friendsPerUser: number;
}

export function searchSize(scale: number): SearchSize {
  const users = Math.max(2, Math.round(10_000 * scale));
  return {
    tracks: Math.max(100, Math.round(1_000_000 * scale)),
    albums: Math.max(20, Math.round(200_000 * scale)),
    artists: Math.max(10, Math.round(100_000 * scale)),
    users,
    tracksPerUser: 150,
    friendsPerUser: Math.min(40, 2 * Math.floor((users - 1) / 2)),
  };
}

export interface SearchWorld extends GeneratedWorld {
  size: SearchSize;
}

/** Tables loaded without their secondary indexes, which are built once at the end. */
const DEFERRED = [
  'tracks',
  'albums',
  'artists',
  'track_artists',
  'album_artists',
  'user_track_stats',
  'user_artist_stats',
  'user_album_stats',
  'track_words',
  'album_words',
  'artist_words',
];

/**
 * Fills an empty, migrated Earshot database with a catalogue of `size.tracks` tracks (albums and
 * artists as asked), users with friends, and who played what (`user_track_stats`, and the
 * per-artist and per-album aggregates the trigger would derive from it), skewed so that some
 * tracks have thousands of listeners and most a few; then builds the indexes and runs VACUUM
 * ANALYZE.
 */
export async function generateSearchWorld(
  pool: pg.Pool,
  size: SearchSize,
  options: GenerationSettings,
): Promise<SearchWorld> {
  return generateWorld(pool, size, options, async (loader) => {
    const { random, steps, now, main, parallel } = loader;
    await main.query('SELECT setseed($1)', [((options.seed % 1000) / 1000) * 2 - 1]);
    const deferred = (await indexDefinitions(main, DEFERRED)).filter((index) => !index.constraint);
    await steps.run('drop indexes for the load', async () => {
      for (const index of deferred) await main.query(index.drop);
    });
    const catalogue = await steps.run(`catalogue (${size.tracks} tracks)`, () =>
      generateCatalogue(main, random, size.tracks, size),
    );
    const plans: UserPlan[] = Array.from({ length: size.users }, (_, n) => {
      const { name, username } = personName(random, n);
      const since = new Date(now - random.int(30, 1000) * 86_400_000);
      return {
        id: randomUuid(random),
        username,
        name,
        plays: 0,
        likes: 0,
        firstAt: since,
        lastAt: new Date(now),
        trackingSince: since,
        poolOffset: random.int(0, size.tracks - 1),
        poolSize: 2_000,
        poolSkew: 2,
        globalShare: 0.3,
      };
    });
    // Loaded with triggers off: search's word index is filled as its migration filled it.
    await steps.run('search words', () => main.query('SELECT search_words_backfill()'));
    await steps.run(`users (${size.users})`, () => storeUsers(main, plans));
    await steps.run(`friendships (${size.users} × ${size.friendsPerUser})`, () =>
      main.query(
        `INSERT INTO friendships (user_id, friend_id)
         SELECT a.id, b.id FROM ${USER_PLANS} a
         CROSS JOIN generate_series(1, $1::int) AS d
         CROSS JOIN LATERAL (VALUES ((a.n + d) % $2), ((a.n - d + $2) % $2)) AS f(m)
         JOIN ${USER_PLANS} b ON b.n = f.m
         ON CONFLICT DO NOTHING`,
        [size.friendsPerUser / 2, size.users],
      ),
    );
    await steps.run(`listening (${size.users} × ${size.tracksPerUser} tracks)`, async () => {
      // Each user's own corner of the catalogue, and the catalogue's hits (cubed: a few tracks
      // with thousands of listeners).
      await main.query(
        `INSERT INTO user_track_stats (user_id, track_id, plays, ms_played, last_played_at)
         SELECT u.id, r.id, max(1 + (k % 17)), max((1 + (k % 17)) * r.duration_ms),
                now() - max(k) * interval '1 day'
         FROM ${USER_PLANS} u
         CROSS JOIN generate_series(1, $1::int) AS k
         CROSS JOIN LATERAL (SELECT CASE WHEN random() < u.global_share
             THEN floor($2::int * random() ^ 3)::int
             ELSE (u.pool_offset + floor(u.pool_size * random() ^ u.pool_skew)::int) % $2::int
           END + 0 * k AS rank) AS pick
         JOIN ${TRACK_RANKS} r ON r.rank = pick.rank
         GROUP BY u.id, r.id`,
        [size.tracksPerUser, size.tracks],
      );
      await parallel([
        (db) =>
          db.query(`INSERT INTO user_artist_stats (user_id, artist_id, plays, ms_played)
                    SELECT s.user_id, ta.artist_id, sum(s.plays), sum(s.ms_played)
                    FROM user_track_stats s JOIN track_artists ta ON ta.track_id = s.track_id
                    GROUP BY 1, 2`),
        (db) =>
          db.query(`INSERT INTO user_album_stats (user_id, album_id, plays, ms_played)
                    SELECT s.user_id, t.album_id, sum(s.plays), sum(s.ms_played)
                    FROM user_track_stats s JOIN tracks t ON t.id = s.track_id
                    GROUP BY 1, 2`),
      ]);
    });
    await finishLoad(loader, deferred);
    await steps.run('VACUUM ANALYZE', () =>
      parallel(
        [...DEFERRED, 'users', 'friendships'].map(
          (table) => (db) => db.query(`VACUUM (ANALYZE) "${table}"`),
        ),
      ),
    );
    const rows = await countRows(main, [...DEFERRED, 'users', 'friendships']);
    return { catalogue, rows };
  });
}
