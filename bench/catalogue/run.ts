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
import { loadConfig } from '../../apps/server/src/config';
import { createMetrics, createSpotifyHttp } from '../../apps/server/src/observability/metrics';
import { SpotifyClient } from '../../apps/server/src/spotify/client';
import { generatedDataOptions, readBackend, withGeneratedWorld } from '../lib/database';
import { explainCalls, formatPlans, planFigures, slowest, type QueryPlan } from '../lib/explain';
import { readOptions } from '../lib/options';
import { markdownTable, SUITE_COLUMNS, suiteCells, writeReport, suiteReport } from '../lib/report';
import { withEarshot } from '../lib/server';
import { createSessions } from '../lib/sessions';
import { runSuite } from '../lib/suite';
import { generateFeedWorld, type FeedSize } from '../feed/generate';

const options = readOptions({
  ...generatedDataOptions({ database: 'earshot_bench_catalogue', seed: 3 }),
  duration: 20,
  warmup: 5,
  connections: 4,
  /** The goal, in ms, for p99 of every variant. */
  goal: 30,
});

const backend = readBackend(options.backend);
const label = `catalogue-${backend}-x${options.scale}`;

/** Issue 13's catalogue at scale 1 (the generator makes ~7.7 tracks per release). */
function catalogueSize(scale: number): FeedSize {
  const users = Math.max(2, Math.round(10_000 * scale));
  return {
    users,
    friendsPerUser: Math.min(150, 2 * Math.floor((users - 1) / 2)),
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
      await pool.query(`UPDATE artists SET enriched_at = now(), albums_fetched_at = now()`);
      await pool.query(`UPDATE albums SET tracks_fetched_at = now()`);
      await pool.query(`UPDATE tracks SET enriched_at = now() WHERE enriched_at IS NULL`);
      await pool.query(`UPDATE spotify_accounts SET library_synced_at = now()`);

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
      const pages = { track: trackDetail, album: albumDetail, artist: artistDetail };
      console.log('EXPLAIN (ANALYZE, BUFFERS) of each variant:');
      const plans: { title: string; plans: QueryPlan[] }[] = [];
      for (const variant of variants) {
        const statements = await explainCalls(pool, async (db) => {
          const user = variant.firstCookie
            ? (await userForSession(db, hashSessionId(variant.firstCookie.split('=')[1]!)))!.user
            : null;
          const viewer: PageViewer = { user, spotify: null };
          return pages[variant.kind](db, spotify, viewer, variant.firstId);
        });
        console.log(
          `  ${variant.name.padEnd(32)} ${statements.length} statements, slowest ${slowest(statements)!.execution_ms} ms`,
        );
        plans.push({ title: `GET /api/${variant.kind}/{id} — ${variant.name}`, plans: statements });
      }
      await bench.release();

      const suite = await withEarshot(bench, options, {}, (url, load) => {
        console.log(
          `autocannon: ${load.connections} connection(s), ${load.duration} s each (+${load.warmup} s warm-up)`,
        );
        return runSuite(url, variants, load);
      });

      const results = variants.map((variant, i) => {
        const { sample: _sample, ...m } = suite.variants[i]!;
        return {
          ...m,
          name: variant.name,
          goal_ms: options.goal,
          goal_met: m.latency_p99_ms < options.goal,
          failures: m.non_2xx + m.errors,
          ...planFigures(plans[i]!.plans),
        };
      });
      const report = await suiteReport('catalogue', {
        backend,
        options,
        size,
        world,
        baseline: suite.baseline,
        variants: results,
        started,
      });
      const { first: before, last: after } = suite.baseline;
      const rows = world.rows;
      const markdown = [
        `# Catalogue pages benchmark — ${backend}, scale ${options.scale}`,
        '',
        `${report.machine}. ${rows.tracks} tracks, ${rows.albums} albums, ${rows.artists} artists, ${rows.users} users (${size.friendsPerUser} friends each), ${rows.plays} plays, ${rows.saved_tracks} likes; generated in ${world.seconds} s.`,
        `autocannon: ${options.connections} connection(s), ${options.duration} s per variant after ${options.warmup} s of warm-up; each variant goes round ${ITEMS} items (the most played, or random ones) and ${VIEWERS} viewers.`,
        `Baseline \`GET /api/status\`: ${before.requests_per_sec} req/s before, ${after.requests_per_sec} after (p50 ${before.latency_p50_ms} ms, p99 ${before.latency_p99_ms} / ${after.latency_p99_ms} ms).`,
        `Machine load average during the run: ${before.load_average[0]} → ${after.load_average[1]}.`,
        '',
        markdownTable(
          ['variant', ...SUITE_COLUMNS, 'DB ms/req (EXPLAIN)', `p99 < ${options.goal} ms`],
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
