import type pg from 'pg';
import { TRACK_RANKS } from '../lib/catalogue';
import type { GeneratedWorld, GenerationSettings } from '../lib/database';
import type { Random } from '../lib/random';
import {
  countRows,
  dropIndexesForLoad,
  fillAggregates,
  finishLoad,
  generateWorld,
  insertFriendships,
  insertLikes,
  insertPlays,
  personName,
  randomUuid,
  storeCatalogueAndUsers,
  USER_PLANS,
  type UserPlan,
} from '../lib/world';

/** Issue 4's heavy listener at scale 1, with a friend and a stranger who view the profile. */
export interface ProfileSize {
  ownerPlays: number;
  /** Distinct tracks the owner plays. */
  ownerTracks: number;
  ownerLikes: number;
  ownerPlaylists: number;
  friendPlays: number;
  tracks: number;
}

export function profileSize(scale: number): ProfileSize {
  return {
    ownerPlays: Math.round(1_000_000 * scale),
    ownerTracks: Math.max(50, Math.round(30_000 * scale)),
    ownerLikes: Math.round(4_000 * scale),
    ownerPlaylists: 60,
    friendPlays: Math.round(50_000 * scale),
    tracks: Math.max(100, Math.round(60_000 * scale)),
  };
}

export interface ProfileWorld extends GeneratedWorld {
  size: ProfileSize;
}

/** Numbers of the generated users in `bench_user_plans` and their `spotify_id` (`bench-<n>`). */
export const OWNER = 0;
export const FRIEND = 1;
export const STRANGER = 2;

const DAY = 86_400_000;
/** Tables whose indexes are built once after the load (with the aggregates'). */
const DEFERRED = ['plays', 'saved_tracks'];

function plans(random: Random, size: ProfileSize, now: number): UserPlan[] {
  const person = (n: number) => personName(random, n);
  const owner = person(OWNER);
  const friend = person(FRIEND);
  const stranger = person(STRANGER);
  const base = (n: number, plays: number, years: number, librarySize: number) => ({
    id: randomUuid(random),
    plays,
    firstAt: new Date(now - years * 365 * DAY),
    lastAt: new Date(now - random.int(60_000, 3_600_000)),
    // Polled for the last two years; the rest was imported from Spotify's export.
    trackingSince: new Date(now - Math.min(years, 2) * 365 * DAY),
    poolOffset: random.int(0, size.tracks - 1),
    poolSize: Math.min(size.tracks, librarySize),
    ...(n === OWNER ? owner : n === FRIEND ? friend : stranger),
  });
  return [
    // The heavy listener: ten years (a million plays in five would be 30 hours a day), a
    // library of `ownerTracks`, favourites played a lot.
    {
      ...base(OWNER, size.ownerPlays, 10, size.ownerTracks),
      likes: size.ownerLikes,
      poolSkew: 2.5,
      globalShare: 0,
    },
    {
      ...base(FRIEND, size.friendPlays, 3, Math.round(size.ownerTracks / 3)),
      likes: 500,
      poolSkew: 2,
      globalShare: 0.3,
    },
    { ...base(STRANGER, 5_000, 1, 1_000), likes: 100, poolSkew: 2, globalShare: 0.3 },
  ];
}

/**
 * Fills an empty, migrated Earshot database with issue 4's world: a catalogue, the heavy
 * listener (plays, likes, playlists, own ignores), a friend with their own history, a
 * stranger, global ignores, and the play aggregates; then indexes and VACUUM ANALYZE.
 */
export async function generateProfileWorld(
  pool: pg.Pool,
  size: ProfileSize,
  options: GenerationSettings,
): Promise<ProfileWorld> {
  return generateWorld(pool, size, options, async (loader) => {
    const { random, steps, now, main, parallel } = loader;
    await main.query('SELECT setseed(0.4)');
    const { catalogue, users } = await storeCatalogueAndUsers(loader, size.tracks, () =>
      plans(random, size, now),
    );
    const { deferred, backfills } = await dropIndexesForLoad(main, DEFERRED);
    await insertFriendships(main, `(a.n, b.n) IN ((${OWNER}, ${FRIEND}), (${FRIEND}, ${OWNER}))`);
    await steps.run(`plays (${size.ownerPlays + size.friendPlays + 5_000})`, () =>
      parallel(users.map((_, n) => (db) => insertPlays(db, size.tracks, n, n + 1))),
    );
    await steps.run('likes', () => insertLikes(main, size.tracks, 0, users.length));
    await fillAggregates(loader, backfills.groups);
    await steps.run('playlists and ignores', async () => {
      await main.query(
        `INSERT INTO playlists (id, name, owner_spotify_id, owner_name, is_public, is_collaborative, track_count)
         SELECT 'pl' || lpad(k::text, 20, '0'), 'Playlist ' || k, 'bench-0', 'owner', k % 2 = 0, false, 20 + k
         FROM generate_series(1, $1::int) AS k`,
        [size.ownerPlaylists],
      );
      await main.query(
        `INSERT INTO user_playlists (user_id, playlist_id, position)
         SELECT u.id, 'pl' || lpad(k::text, 20, '0'), k
         FROM ${USER_PLANS} u, generate_series(1, $1::int) AS k WHERE u.n = ${OWNER}`,
        [size.ownerPlaylists],
      );
      // The owner ignores some of their most played songs and one of their artists; the admins
      // ignore a few songs and artists for everyone.
      await main.query(
        `INSERT INTO ignored_tracks (user_id, uid, reported)
         SELECT DISTINCT ON (t.uid) s.user_id, t.uid, false
         FROM user_track_stats s JOIN tracks t ON t.id = s.track_id
         JOIN ${USER_PLANS} u ON u.id = s.user_id AND u.n = ${OWNER}
         ORDER BY t.uid, s.plays DESC LIMIT 25`,
      );
      await main.query(
        `INSERT INTO ignored_artists (user_id, artist_id, reported)
         SELECT u.id, ta.artist_id, true FROM ${USER_PLANS} u
         JOIN ${TRACK_RANKS} r ON r.rank = (u.pool_offset + 5) % ${size.tracks}
         JOIN track_artists ta ON ta.track_id = r.id AND ta.position = 0
         WHERE u.n = ${OWNER}`,
      );
      await main.query(
        `INSERT INTO global_ignored_tracks (uid)
         SELECT DISTINCT t.uid FROM ${TRACK_RANKS} r JOIN tracks t ON t.id = r.id
         WHERE r.rank % 997 = 3`,
      );
      await main.query(
        `INSERT INTO global_ignored_artists (artist_id) SELECT id FROM artists ORDER BY md5(id) LIMIT 2`,
      );
    });
    await finishLoad(loader, deferred);
    await steps.run('VACUUM ANALYZE', async () => {
      await main.query('VACUUM (ANALYZE)');
    });
    const rows = await countRows(main, [
      'plays',
      'user_track_stats',
      'user_track_days',
      'saved_tracks',
      'tracks',
      'artists',
      'albums',
      'ignored_tracks',
    ]);
    const owner = await main.query<{ tracks: string }>(
      `SELECT count(*) AS tracks FROM user_track_stats s JOIN users u ON u.id = s.user_id
       WHERE u.spotify_id = 'bench-${OWNER}'`,
    );
    rows.owner_distinct_tracks = Number(owner.rows[0]!.tracks);
    return { catalogue, rows };
  });
}
