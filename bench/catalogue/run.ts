/**
 * `npm run bench:catalogue`: issue 13's catalogue pages. Generates (or reuses) a world of
 * 1,000,000 tracks (× --scale) with 10,000 users, their friends, plays and likes; marks the
 * catalogue as already read from Spotify (the pages' warm path: no Spotify call during the run),
 * starts Earshot on it and loads `GET /api/track/{id}`, `/api/album/{id}` and `/api/artist/{id}`
 * for popular and long-tail items, as logged-in viewers and visitors, beside `GET /api/status`.
 * Writes figures and query plans to bench/results/catalogue-<backend>-x<scale>.*.
 */
import { hashSessionId, userForSession } from '../../apps/server/src/services/sessions';
import {
  albumDetail,
  artistDetail,
  trackDetail,
} from '../../apps/server/src/services/catalogue-pages';
import type { PageViewer } from '../../apps/server/src/services/catalogue-viewer';
import { SimilarTracks } from '../../apps/server/src/services/similar-tracks';
import type { Db } from '../../apps/server/src/db/client';
import { loadConfig } from '../../apps/server/src/config';
import { createMetrics, createSpotifyHttp } from '../../apps/server/src/observability/metrics';
import { SpotifyClient } from '../../apps/server/src/spotify/client';
import { generatedDataOptions, readBackend, withGeneratedWorld } from '../lib/database';
import { goalSuiteOptions, runGoalSuite, writeGoalReport } from '../lib/goal-suite';
import { readOptions } from '../lib/options';
import { createSessions } from '../lib/sessions';
import { feedSize, generateFeedWorld, type FeedSize } from '../feed/generate';

const options = readOptions({
  ...generatedDataOptions({ database: 'earshot_bench_catalogue', seed: 3 }),
  // The fixed rate: 1,000 of the 10,000 users on at the busiest hour, each opening a page every 20 s.
  ...goalSuiteOptions({ connections: 4, goal: 30, rate: 50 }),
});

const backend = readBackend(options.backend);
const label = `catalogue-${backend}-x${options.scale}`;

/** Issue 13's catalogue at scale 1 (the generator makes ~7.7 tracks per release). */
function catalogueSize(scale: number): FeedSize {
  // The feed's users and friends; more tracks, fewer plays and likes.
  return {
    ...feedSize(scale),
    plays: Math.round(5_000_000 * scale),
    likes: Math.round(1_000_000 * scale),
    tracks: Math.max(100, Math.round(1_000_000 * scale)),
  };
}

/** How many items of each kind, and viewers, the requests go round. */
const ITEMS = 32;
const VIEWERS = 32;

async function main() {
  const started = performance.now();
  const size = catalogueSize(options.scale);
  console.log(`Catalogue benchmark (${backend}, scale ${options.scale}):`, size);
  await withGeneratedWorld(
    'catalogue',
    { ...options, backend },
    (pool, settings) => generateFeedWorld(pool, size, settings),
    async (bench, world) => {
      const { pool } = await bench.open();
      // The warm path: every catalogue row as if already read from Spotify, every library synced.
      // Only times change, which no trigger reads; with triggers on, the catalogue's update
      // triggers joined a million rows' transition tables spilled to disk (minutes at full size).
      const marking = await pool.connect();
      try {
        await marking.query('BEGIN');
        await marking.query('SET LOCAL session_replication_role = replica');
        // A reused world is marked again once its discographies (a day) could be near stale.
        await marking.query(
          `UPDATE artists SET enriched_at = now(), albums_fetched_at = now()
           WHERE albums_fetched_at IS NULL OR albums_fetched_at < now() - interval '1 hour'`,
        );
        await marking.query(
          `UPDATE albums SET tracks_fetched_at = now()
           WHERE tracks_fetched_at IS NULL OR tracks_fetched_at < now() - interval '1 hour'`,
        );
        await marking.query(`UPDATE tracks SET enriched_at = now() WHERE enriched_at IS NULL`);
        await marking.query(`UPDATE spotify_accounts SET library_synced_at = now()`);
        await marking.query('COMMIT');
      } finally {
        marking.release();
      }
      // The rows were rewritten: index-only reads need the visibility map set again.
      await pool.query('VACUUM ANALYZE');

      const popular = await pool.query<{ id: string; album_id: string; artist_id: string }>(
        `SELECT t.id, t.album_id, ta.artist_id
         FROM (SELECT track_id, sum(plays) AS plays FROM user_track_stats
               GROUP BY track_id ORDER BY plays DESC LIMIT ${ITEMS}) s
         JOIN tracks t ON t.id = s.track_id
         JOIN track_artists ta ON ta.track_id = t.id AND ta.position = 0`,
      );
      const tail = await pool.query<{ id: string; album_id: string; artist_id: string }>(
        `SELECT t.id, t.album_id, ta.artist_id FROM tracks t
         JOIN track_artists ta ON ta.track_id = t.id AND ta.position = 0
         ORDER BY md5(t.id) LIMIT ${ITEMS}`,
      );
      const viewers = await pool.query<{ id: string }>(
        `SELECT id FROM users ORDER BY md5(id::text) LIMIT ${VIEWERS}`,
      );
      const cookies = await createSessions(
        pool,
        viewers.rows.map((row) => row.id),
      );
      const kinds = [
        { kind: 'track', id: (row: { id: string }) => row.id },
        { kind: 'album', id: (row: { album_id: string }) => row.album_id },
        { kind: 'artist', id: (row: { artist_id: string }) => row.artist_id },
      ] as const;
      const variants = kinds.flatMap(({ kind, id }) =>
        [
          { set: 'popular', rows: popular.rows, signedIn: true },
          { set: 'long tail', rows: tail.rows, signedIn: true },
          { set: 'popular', rows: popular.rows, signedIn: false },
        ].map(({ set, rows, signedIn }) => ({
          key: `${kind}-${set.replace(' ', '-')}-${signedIn ? 'user' : 'visitor'}`,
          name: `${kind}, ${set}, ${signedIn ? 'logged in' : 'visitor'}`,
          kind,
          firstId: id(rows[0]!),
          firstCookie: signedIn ? cookies[0]! : undefined,
          targets: rows.map((row, i) => ({
            path: `/api/${kind}/${id(row)}`,
            ...(signedIn ? { headers: { cookie: cookies[i % cookies.length]! } } : {}),
          })),
        })),
      );

      // The statements of one request per variant, as the route runs them (no Spotify call: the
      // catalogue is warm and the viewer's library synced).
      const config = loadConfig({ PUBLIC_URL: 'http://127.0.0.1:1' });
      const spotify = new SpotifyClient(config.spotify, createSpotifyHttp(createMetrics()));
      // A fresh cache: the plans show a song's first request, which reads its neighbours.
      const pages = {
        track: (db: Db, client: SpotifyClient, viewer: PageViewer, id: string) =>
          trackDetail(db, client, new SimilarTracks(), viewer, id),
        album: albumDetail,
        artist: artistDetail,
      };
      const suite = await runGoalSuite(
        bench,
        pool,
        options,
        variants.map((variant) => ({
          ...variant,
          title: `GET /api/${variant.kind}/{id} — ${variant.name}`,
          call: async (db: Db) => {
            const user = variant.firstCookie
              ? (await userForSession(db, hashSessionId(variant.firstCookie.split('=')[1]!)))!.user
              : null;
            const viewer: PageViewer = { user, spotify: null };
            return pages[variant.kind](db, spotify, viewer, variant.firstId);
          },
        })),
        { nameWidth: 32, describe: () => ({}) },
      );
      const rows = world.rows;
      const run = { benchmark: 'catalogue', label, backend, options, size, world, started };
      await writeGoalReport(run, suite, {
        title: 'Catalogue pages benchmark',
        describeWorld: `${rows.tracks} tracks, ${rows.albums} albums, ${rows.artists} artists, ${rows.users} users (${size.friendsPerUser} friends each), ${rows.plays} plays, ${rows.saved_tracks} likes; generated in ${world.seconds} s.`,
        describeLoad: `autocannon: ${options.connections} connection(s), ${options.duration} s per variant after ${options.warmup} s of warm-up, as fast as answered (saturation)${options.rate ? `, then at a steady ${options.rate} req/s in an open loop (latency from when each request was due)` : ''}; each variant goes round ${ITEMS} items (the most played, or random ones) and ${VIEWERS} viewers.`,
        leading: { header: ['variant'], cells: (r) => [r.name] },
      });
    },
  );
}

await main();
