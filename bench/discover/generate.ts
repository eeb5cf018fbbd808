import type pg from 'pg';
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
  insertFriendships,
  insertLikes,
  insertPlays,
  personName,
  randomUuid,
  storeCatalogueAndUsers,
  USER_PLANS,
  type UserPlan,
} from '../lib/world';

/**
 * Issue 14's viewer at scale 1: 1,000,000 plays and 5,000 likes, 150 friends with 1,000,000
 * plays between them. Friends do not scale (they shape each request); plays, likes and the
 * catalogue do.
 */
export interface DiscoverSize {
  viewerPlays: number;
  viewerLikes: number;
  /** Distinct tracks the viewer plays. */
  viewerTracks: number;
  friends: number;
  friendPlays: number;
  friendLikes: number;
  /** Artists the viewer follows: half among the ones they play most, half anywhere. */
  followedArtists: number;
  tracks: number;
}

export function discoverSize(scale: number): DiscoverSize {
  return {
    viewerPlays: Math.round(1_000_000 * scale),
    viewerLikes: Math.round(5_000 * scale),
    viewerTracks: Math.max(50, Math.round(30_000 * scale)),
    friends: 150,
    friendPlays: Math.round(1_000_000 * scale),
    friendLikes: Math.round(60_000 * scale),
    followedArtists: 300,
    tracks: Math.max(200, Math.round(120_000 * scale)),
  };
}

export interface DiscoverWorld extends GeneratedWorld {
  size: DiscoverSize;
}

/** The viewer is user 0 (`spotify_id` `bench-0`); friends are 1…friends. */
export const VIEWER = 0;

const DAY = 86_400_000;
/** Tables whose indexes are built once after the load (with the aggregates'). */
const DEFERRED = ['plays', 'saved_tracks', 'friendships'];

function plans(random: Random, size: DiscoverSize, now: number): UserPlan[] {
  const user = (n: number) => ({ id: randomUuid(random), ...personName(random, n) });
  // Ten years of listening, a few hours a day; polled for the last two.
  const viewer: UserPlan = {
    ...user(VIEWER),
    plays: size.viewerPlays,
    likes: size.viewerLikes,
    firstAt: new Date(now - 10 * 365 * DAY),
    lastAt: new Date(now - random.int(60_000, 3_600_000)),
    trackingSince: new Date(now - 2 * 365 * DAY),
    poolOffset: random.int(0, size.tracks - 1),
    poolSize: Math.min(size.tracks, size.viewerTracks),
    poolSkew: 2.5,
    globalShare: 0.1,
  };
  const activity = Array.from({ length: size.friends }, () => Math.exp(gaussian(random)));
  const plays = apportion(size.friendPlays, activity);
  const likes = apportion(size.friendLikes, activity);
  const friends = plays.map((count, i): UserPlan => {
    // Most friends listened today or yesterday; some paused weeks ago.
    const lastAt = random.chance(0.85)
      ? now - random.int(60_000, 36 * 3_600_000)
      : now - random.int(2 * DAY, 60 * DAY);
    const span = Math.max(random.int(180, 1095) * DAY, count * 180_000);
    return {
      ...user(i + 1),
      plays: count,
      likes: Math.min(likes[i]!, Math.floor(count / 2)),
      firstAt: new Date(lastAt - span),
      lastAt: new Date(lastAt),
      trackingSince: new Date(lastAt - Math.min(span, 365 * DAY)),
      poolOffset: random.int(0, size.tracks - 1),
      poolSize: Math.min(size.tracks, 300 + Math.round(count / 3)),
      poolSkew: 2,
      globalShare: 0.3,
    };
  });
  return [viewer, ...friends];
}

/**
 * Fills an empty, migrated Earshot database with issue 14's world: a catalogue, the viewer
 * (plays, likes, followed artists), their 150 friends (both friendship rows, plays, likes),
 * and the play aggregates; then indexes and VACUUM ANALYZE.
 */
export async function generateDiscoverWorld(
  pool: pg.Pool,
  size: DiscoverSize,
  options: GenerationSettings,
): Promise<DiscoverWorld> {
  return generateWorld(pool, size, options, async (loader) => {
    const { random, steps, now, main, parallel } = loader;
    await main.query('SELECT setseed(0.14)');
    const { catalogue, users } = await storeCatalogueAndUsers(loader, size.tracks, () =>
      plans(random, size, now),
    );
    const { deferred, backfills } = await dropIndexesForLoad(main, DEFERRED);
    await insertFriendships(main, `(a.n = ${VIEWER}) <> (b.n = ${VIEWER})`);
    await steps.run(`plays (${size.viewerPlays + size.friendPlays})`, () =>
      parallel([
        (db) => insertPlays(db, size.tracks, VIEWER, VIEWER + 1),
        (db) => insertPlays(db, size.tracks, 1, users.length),
      ]),
    );
    await steps.run('likes', () => insertLikes(main, size.tracks, 0, users.length));
    await steps.run('followed artists', () =>
      main.query(
        `INSERT INTO followed_artists (user_id, artist_id)
         SELECT u.id, a.artist_id FROM ${USER_PLANS} u, (
           (SELECT ta.artist_id FROM plays p JOIN track_artists ta ON ta.track_id = p.track_id
            JOIN ${USER_PLANS} v ON v.id = p.user_id AND v.n = ${VIEWER}
            GROUP BY ta.artist_id ORDER BY count(*) DESC LIMIT $1)
           UNION
           (SELECT id FROM artists ORDER BY md5(id) LIMIT $1)
         ) a(artist_id)
         WHERE u.n = ${VIEWER}`,
        [size.followedArtists / 2],
      ),
    );
    await fillAggregates(loader, backfills.groups);
    await finishLoad(loader, deferred);
    await steps.run('VACUUM ANALYZE', async () => {
      await main.query('VACUUM (ANALYZE)');
    });
    const rows = await countRows(main, [
      'plays',
      'user_track_stats',
      'user_song_stats',
      'user_track_days',
      'saved_tracks',
      'followed_artists',
      'friendships',
      'tracks',
      'artists',
      'albums',
    ]);
    const viewer = await main.query<{ tracks: string; likes: string; new_releases: string }>(
      `SELECT (SELECT count(*) FROM user_track_stats WHERE user_id = u.id) AS tracks,
              (SELECT count(*) FROM saved_tracks WHERE user_id = u.id) AS likes,
              (SELECT count(DISTINCT aa.album_id) FROM followed_artists f
               JOIN album_artists aa ON aa.artist_id = f.artist_id
               JOIN albums al ON al.id = aa.album_id
               WHERE f.user_id = u.id AND al.release_date >= to_char(now() - interval '180 days', 'YYYY-MM-DD'))
                 AS new_releases
       FROM users u WHERE u.spotify_id = 'bench-${VIEWER}'`,
    );
    rows.viewer_distinct_tracks = Number(viewer.rows[0]!.tracks);
    rows.viewer_likes = Number(viewer.rows[0]!.likes);
    rows.viewer_followed_new_releases = Number(viewer.rows[0]!.new_releases);
    return { catalogue, rows };
  });
}
