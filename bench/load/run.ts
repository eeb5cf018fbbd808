/**
 * `npm run bench:load`: issue 12's "Load with writes". On the feed benchmark's world (10,000
 * users × 150 friends, 20 M plays at --scale 1), Earshot serves the feed, public profiles and the
 * like toggle over 16 connections while syncs store the plays of every user as an active
 * listener (`writers.ts`, its own process). Reports each request kind's throughput, latency and
 * failures, the writers' achieved rate, the cache's hits and misses and how often a viewer's
 * page changed, beside `GET /api/status` before and after. Writes
 * bench/results/load-postgres-x<scale>.*.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { recentActivity } from '../../apps/server/src/services/activity';
import { publicProfileOf } from '../../apps/server/src/services/public-profile';
import { hashSessionId, userForSession } from '../../apps/server/src/services/sessions';
import { findUserByHandle } from '../../apps/server/src/services/users';
import type { UserRow } from '../../apps/server/src/db/schema/users';
import { CHANGES_CHANNEL, LIVE_CHANNEL } from '../../apps/server/src/db/changes';
import { loadAverage, cpuDuring } from '../lib/cpu';
import { generatedDataOptions, withGeneratedWorld } from '../lib/database';
import { explainCalls, formatPlans, planFigures, type QueryPlan } from '../lib/explain';
import { fire, measure, preflight, printMeasurement, summarize, type Target } from '../lib/load';
import { readOptions } from '../lib/options';
import { cpuMs, machineDescription, markdownTable, writeReport } from '../lib/report';
import { withEarshot } from '../lib/server';
import { createSessions } from '../lib/sessions';
import { secondsSince } from '../lib/steps';
import { feedSize, generateFeedWorld } from '../feed/generate';
import type { PollRecord, WriterMessage, WriterReport, WriterSettings } from './writers';

const options = readOptions({
  // The feed benchmark's world (same generator and seed), in a database of this benchmark.
  ...generatedDataOptions({ database: 'load_bench', seed: 1 }),
  /** Seconds measured, after `warmup` seconds of the same load and writes. */
  duration: 60,
  warmup: 15,
  /** Seconds of `GET /api/status` before and after (each after 5 s of warm-up). */
  statusDuration: 20,
  /** The 16 connections, split between the request kinds (status gets them all). */
  feedConnections: 10,
  profileConnections: 3,
  likeConnections: 3,
  /**
   * Requests per second of all profile (like) connections together: a share beside the feed, not
   * a flood (a signed-in profile costs tens of ms of CPU; a like is one write beside ~5 plays).
   */
  profileRate: 10,
  likeRate: 5,
  /** Signed-in users whose feeds are requested in turn. */
  viewers: 500,
  /** Of the viewers, how many toggle a like. */
  likers: 100,
  /** Users whose public profiles are requested (as a visitor, a friend and a stranger). */
  profiles: 8,
  /** Active listeners (the first users); 0: every user. */
  listeners: 0,
  /** Mean seconds between two plays of a listener: 10,000 listeners at 210 s make 47.6 plays/s. */
  pace: 210,
  /** Seconds between two polls of a listener; 0: as the product schedules them. */
  pollInterval: 0,
  /** Syncs in flight at most in the writers' process. */
  writerConcurrency: 8,
  /** Added to every answer of the Spotify stand-in, in ms. */
  spotifyLatency: 0,
  /** Earshot listens here, the Spotify stand-in on the next port. */
  port: 4900,
});

const size = feedSize(options.scale);
const connections = options.feedConnections + options.profileConnections + options.likeConnections;
const listenerCount = options.listeners > 0 ? Math.min(options.listeners, size.users) : size.users;
const label = `load-postgres-x${options.scale}${options.pollInterval > 0 ? `-poll${options.pollInterval}` : ''}`;
const WRITERS = fileURLToPath(new URL('./writers.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The server's key in every benchmark (`lib/database.ts`): tokens are encrypted with it. */
const ENCRYPTION_KEY_ENV = 'ENCRYPTION_KEY';

/** The writers' process: its stand-in listens once it reports `ready`. */
class Writers {
  readonly child: ChildProcess;
  readonly #reports: WriterReport[] = [];
  #waiting: (() => void) | undefined;

  constructor(settings: WriterSettings) {
    this.child = fork(WRITERS, [], {
      cwd: REPO_ROOT,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_WRITERS: JSON.stringify(settings) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (report: WriterReport) => {
      this.#reports.push(report);
      this.#waiting?.();
    });
    this.child.on('exit', () => this.#waiting?.());
  }

  /** The next report of `type` (a `failed` report or an exit throws). */
  async next<T extends WriterReport['type']>(type: T): Promise<Extract<WriterReport, { type: T }>> {
    for (;;) {
      const index = this.#reports.findIndex((r) => r.type === type || r.type === 'failed');
      if (index >= 0) {
        const [report] = this.#reports.splice(index, 1);
        if (report!.type === 'failed') throw new Error(`Writers failed: ${report!.error}`);
        return report as Extract<WriterReport, { type: T }>;
      }
      if (this.child.exitCode !== null) throw new Error('The writers exited');
      await new Promise<void>((resolve) => (this.#waiting = resolve));
    }
  }

  send(message: WriterMessage) {
    this.child.send(message);
  }

  async kill() {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await once(this.child, 'exit');
  }
}

/** Counters of `name{result="…"}` in the server's Prometheus metrics. */
async function counters(url: string): Promise<Record<string, Record<string, number>>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const result: Record<string, Record<string, number>> = { activity: {}, profile: {} };
  for (const match of text.matchAll(
    /^earshot_(activity|profile)_cache_requests_total\{result="(\w+)"\} (\d+)/gm,
  )) {
    result[match[1]!]![match[2]!] = Number(match[3]);
  }
  return result;
}

const difference = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after).map(([key, value]) => [key, value - (before[key] ?? 0)]),
  );

/**
 * Hears the announcements of committed writes as a server process does, and counts how often
 * each viewer's feed changed: an announcement naming the viewer or one of their friends.
 */
async function announcementCounter(url: string, friendsOf: Map<string, string[]>) {
  const dependents = new Map<string, string[]>();
  for (const [viewer, friends] of friendsOf) {
    for (const id of [viewer, ...friends])
      dependents.set(id, [...(dependents.get(id) ?? []), viewer]);
  }
  const zero = () => ({
    users: 0,
    users_named: 0,
    likes: 0,
    catalogue: 0,
    everything: 0,
    live: 0,
  });
  let counts = zero();
  let changes = new Map<string, number>();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  client.on('notification', ({ channel, payload = '' }) => {
    if (channel === LIVE_CHANNEL) {
      counts.live++;
      return;
    }
    const what = payload.slice(payload.indexOf('|') + 1);
    const ids = what.slice(2).split(',');
    const changed = (viewers: Iterable<string>) => {
      for (const viewer of new Set(viewers)) changes.set(viewer, (changes.get(viewer) ?? 0) + 1);
    };
    if (what.startsWith('u:')) {
      counts.users++;
      counts.users_named += ids.length;
      changed(ids.flatMap((id) => dependents.get(id) ?? []));
    } else if (what.startsWith('l:')) {
      // Likes announced apart: a Recent page shows only its viewer's own likes.
      counts.likes++;
      changed(ids.filter((id) => friendsOf.has(id)));
    } else if (what === 'c') counts.catalogue++;
    else counts.everything++;
  });
  await client.query(`LISTEN ${CHANGES_CHANNEL}`);
  await client.query(`LISTEN ${LIVE_CHANNEL}`);
  return {
    reset() {
      counts = zero();
      changes = new Map();
    },
    /** The counts since `reset`, and each viewer's page changes. */
    read() {
      return { counts, perViewer: [...friendsOf.keys()].map((viewer) => changes.get(viewer) ?? 0) };
    },
    close: () => client.end(),
  };
}

const quantile = (values: readonly number[], q: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const round1 = (value: number) => Math.round(value * 10) / 10;

/** The writers' figures over the measured window. */
function writerFigures(polls: readonly PollRecord[], from: number, to: number) {
  const inside = polls.filter((poll) => poll.at >= from && poll.at < to);
  const seconds = (to - from) / 1000;
  const stored = inside.reduce((sum, poll) => sum + poll.stored, 0);
  const failed = inside.filter((poll) => poll.error);
  return {
    polls: inside.length,
    polls_per_sec: round1(inside.length / seconds),
    plays_stored: stored,
    plays_per_sec: round1(stored / seconds),
    plays_per_poll: round1(stored / Math.max(1, inside.length)),
    poll_p50_ms: quantile(
      inside.map((poll) => poll.ms),
      0.5,
    ),
    poll_p99_ms: quantile(
      inside.map((poll) => poll.ms),
      0.99,
    ),
    start_lag_p99_ms: Math.round(
      quantile(
        inside.map((poll) => poll.lagMs),
        0.99,
      ),
    ),
    errors: failed.length,
    first_errors: [...new Set(failed.map((poll) => poll.error))].slice(0, 3),
  };
}

async function main() {
  const started = performance.now();
  console.log(`Load benchmark (postgres, scale ${options.scale}):`, size);
  await withGeneratedWorld(
    'feed',
    { ...options, backend: 'postgres' },
    (pool, settings) => generateFeedWorld(pool, size, settings),
    async (bench, world) => {
      const { pool } = await bench.open();
      const users = async (numbers: readonly number[]) => {
        const result = await pool.query<{ id: string; username: string }>(
          `SELECT u.id, u.username FROM unnest($1::text[]) WITH ORDINALITY AS s(spotify_id, k)
           JOIN users u ON u.spotify_id = s.spotify_id ORDER BY s.k`,
          [numbers.map((n) => `bench-${n}`)],
        );
        return result.rows;
      };
      const spread = (count: number, shift: number) =>
        Array.from({ length: Math.min(count, size.users) }, (_, k) =>
          Math.floor(((k + shift) * size.users) / Math.min(count, size.users)),
        );

      // Feed viewers spread over the user numbers; every n-th of them also likes.
      const viewers = await users(spread(options.viewers, 0));
      const viewerCookies = await createSessions(
        pool,
        viewers.map((v) => v.id),
      );
      const friendRows = await pool.query<{ user_id: string; friend_id: string }>(
        'SELECT user_id, friend_id FROM friendships WHERE user_id = ANY($1::uuid[])',
        [viewers.map((v) => v.id)],
      );
      const friendsOf = new Map<string, string[]>(viewers.map((v) => [v.id, []]));
      for (const row of friendRows.rows) friendsOf.get(row.user_id)!.push(row.friend_id);

      // Likers: each toggles one main version of a song they have not saved.
      const step = Math.max(1, Math.floor(viewers.length / options.likers));
      const likers = viewers
        .map((viewer, k) => ({ ...viewer, cookie: viewerCookies[k]! }))
        .filter((_, k) => k % step === 0)
        .slice(0, options.likers);
      const candidates = await pool.query<{ uid: string }>(
        `SELECT id AS uid FROM tracks WHERE id = uid ORDER BY md5(id) LIMIT 2000`,
      );
      const saved = await pool.query<{ user_id: string; uid: string }>(
        `SELECT s.user_id, t.uid FROM saved_tracks s JOIN tracks t ON t.id = s.track_id
         WHERE s.user_id = ANY($1::uuid[]) AND t.uid = ANY($2::text[])`,
        [likers.map((l) => l.id), candidates.rows.map((row) => row.uid)],
      );
      const savedKeys = new Set(saved.rows.map((row) => `${row.user_id} ${row.uid}`));
      const likes = likers.map((liker, k) => {
        for (let j = 0; ; j++) {
          const { uid } = candidates.rows[(k * 13 + j) % candidates.rows.length]!;
          if (!savedKeys.has(`${liker.id} ${uid}`)) return { ...liker, uid };
        }
      });

      // Profiles: owners spread over the user numbers, each seen by a friend and a stranger.
      const owners = await users(spread(options.profiles, 0.5));
      const profileViewers: { owner: string; friend: string; stranger: string }[] = [];
      for (const owner of owners) {
        const friend = await pool.query<{ id: string }>(
          `SELECT friend_id AS id FROM friendships WHERE user_id = $1 ORDER BY md5(friend_id::text) LIMIT 1`,
          [owner.id],
        );
        const stranger = await pool.query<{ id: string }>(
          `SELECT u.id FROM users u WHERE u.id <> $1 AND NOT EXISTS
             (SELECT 1 FROM friendships f WHERE f.user_id = $1 AND f.friend_id = u.id)
           ORDER BY md5(u.id::text) LIMIT 1`,
          [owner.id],
        );
        profileViewers.push({
          owner: owner.username,
          friend: friend.rows[0]!.id,
          stranger: stranger.rows[0]!.id,
        });
      }
      const profileCookies = await createSessions(
        pool,
        profileViewers.flatMap((p) => [p.friend, p.stranger]),
      );

      const feedTargets: Target[] = viewerCookies.map((cookie) => ({
        path: '/api/recent',
        headers: { cookie },
      }));
      const profileTargets: Target[] = profileViewers.flatMap((p, k) => {
        const path = `/api/user/${encodeURIComponent(p.owner)}/public`;
        return [
          { path },
          { path, headers: { cookie: profileCookies[2 * k]! } },
          { path, headers: { cookie: profileCookies[2 * k + 1]! } },
        ];
      });
      // All likes, then all unlikes: each request changes what it names.
      const likeTargets: Target[] = [true, false].flatMap((liked) =>
        likes.map((like) => ({
          method: 'POST' as const,
          path: '/api/like',
          headers: { cookie: like.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ uid: like.uid, liked }),
        })),
      );

      // Plans of one feed page and one profile (as a friend), before any load.
      const plans: { title: string; plans: QueryPlan[] }[] = [];
      const sessionOf = async (db: Parameters<typeof userForSession>[0], cookie: string) =>
        (await userForSession(db, hashSessionId(cookie.split('=')[1]!)))!.user as UserRow;
      plans.push({
        title: 'GET /api/recent — the first viewer',
        plans: await explainCalls(pool, async (db) =>
          recentActivity(db, await sessionOf(db, viewerCookies[0]!), {
            limit: 30,
            includeMe: true,
          }),
        ),
      });
      plans.push({
        title: `GET /api/user/${profileViewers[0]!.owner}/public — as a friend`,
        plans: await explainCalls(pool, async (db) =>
          publicProfileOf(
            db,
            (await findUserByHandle(db, profileViewers[0]!.owner))!,
            await sessionOf(db, profileCookies[0]!),
          ),
        ),
      });
      for (const section of plans) {
        const figures = planFigures(section.plans);
        console.log(
          `  ${section.title}: ${figures.statements} statements, slowest ${figures.main_query_ms} ms`,
        );
      }
      await bench.release();

      const url = bench.serverEnv.DATABASE_URL!;
      const spotifyPort = options.port + 1;
      console.log(`Writers: ${listenerCount} listeners, a play every ${options.pace} s each…`);
      const writers = new Writers({
        databaseUrl: url,
        encryptionKey: bench.serverEnv[ENCRYPTION_KEY_ENV]!,
        port: spotifyPort,
        listeners: listenerCount,
        pace: options.pace,
        pollInterval: options.pollInterval,
        concurrency: options.writerConcurrency,
        spotifyLatencyMs: options.spotifyLatency,
        seed: options.seed,
      });
      const announcements = await announcementCounter(url, friendsOf);
      try {
        const ready = await writers.next('ready');
        console.log(
          `  ready in ${ready.setupSeconds} s: ${ready.listeners} listeners, ${ready.tracks} tracks, a poll every ${ready.meanIntervalSec} s per listener on average`,
        );
        const standIn = `http://127.0.0.1:${spotifyPort}`;
        const run = await withEarshot(
          bench,
          { ...options, connections },
          { SPOTIFY_API_URL: `${standIn}/v1`, SPOTIFY_ACCOUNTS_URL: `${standIn}/accounts` },
          async (serverUrl, load) => {
            const processes = [
              ...(load.processes ?? []),
              { label: 'writers', pids: async () => [writers.child.pid!] },
            ];
            await preflight(serverUrl, feedTargets);
            await preflight(serverUrl, profileTargets);
            await preflight(serverUrl, likeTargets);
            const statusLoad = { ...load, duration: options.statusDuration, warmup: 5, processes };
            const status = [{ path: '/api/status' }];
            const before = await measure(serverUrl, 'GET /api/status (before)', status, statusLoad);

            writers.send({ type: 'start' });
            const { at: writersStarted } = await writers.next('started');
            const mix = (seconds: number) =>
              Promise.all([
                fire(serverUrl, feedTargets, options.feedConnections, seconds),
                fire(
                  serverUrl,
                  profileTargets,
                  options.profileConnections,
                  seconds,
                  options.profileRate,
                ),
                fire(serverUrl, likeTargets, options.likeConnections, seconds, options.likeRate),
              ]);
            console.log(
              `Mix: ${options.warmup} s warm-up, then ${options.duration} s measured (writing since ${new Date(writersStarted).toISOString()})`,
            );
            await mix(options.warmup);
            const countersBefore = await counters(serverUrl);
            announcements.reset();
            const loadBefore = loadAverage();
            const windowStart = Date.now();
            const { result, cpuSeconds } = await cpuDuring(processes, () => mix(options.duration));
            const windowEnd = Date.now();
            const loads: [number, number] = [loadBefore, loadAverage()];
            const heard = announcements.read();
            const countersAfter = await counters(serverUrl);
            writers.send({ type: 'stop' });
            const stopped = await writers.next('stopped');

            const [feed, profile, like] = (
              [
                ['GET /api/recent (feed)', options.feedConnections],
                ['GET /api/user/{id}/public', options.profileConnections],
                ['POST /api/like (toggle)', options.likeConnections],
              ] as const
            ).map(([name, conns], i) => summarize(name, conns, result[i]!, {}, loads)) as [
              ReturnType<typeof summarize>,
              ReturnType<typeof summarize>,
              ReturnType<typeof summarize>,
            ];
            for (const m of [feed, profile, like]) printMeasurement(m);
            const after = await measure(serverUrl, 'GET /api/status (after)', status, statusLoad);
            return {
              before,
              after,
              feed,
              profile,
              like,
              cpuSeconds,
              windowSeconds: (windowEnd - windowStart) / 1000,
              writers: writerFigures(stopped.polls, windowStart, windowEnd),
              standInCalls: stopped.calls,
              cache: {
                feed: difference(countersAfter.activity!, countersBefore.activity!),
                visitor_profiles: difference(countersAfter.profile!, countersBefore.profile!),
              },
              heard,
            };
          },
        );

        const statusMean = Math.round(
          (run.before.requests_per_sec + run.after.requests_per_sec) / 2,
        );
        const ratio = Math.round((run.feed.requests_per_sec / statusMean) * 1000) / 1000;
        const failures = (m: typeof run.feed) => m.non_2xx + m.errors;
        const perViewer = run.heard.perViewer;
        const changesPerViewer =
          perViewer.reduce((a, b) => a + b, 0) / Math.max(1, perViewer.length);
        const secondsBetweenChanges = round1(run.windowSeconds / Math.max(changesPerViewer, 1e-9));
        const goals = {
          feed_p99_under_50_ms: run.feed.latency_p99_ms < 50,
          feed_throughput_at_least_30_percent_of_status: ratio >= 0.3,
          zero_errors:
            failures(run.feed) + failures(run.profile) + failures(run.like) + run.writers.errors ===
            0,
        };
        const likeWrites =
          (run.standInCalls['PUT /me/tracks'] ?? 0) + (run.standInCalls['DELETE /me/tracks'] ?? 0);
        const report = {
          benchmark: 'load',
          backend: 'postgres',
          scale: options.scale,
          machine: await machineDescription(),
          size,
          world,
          options,
          load: {
            connections,
            duration_s: options.duration,
            warmup_s: options.warmup,
            viewers: viewers.length,
            likers: likes.length,
            profiles: profileTargets.length,
          },
          baseline: {
            before: run.before,
            after: run.after,
            requests_per_sec: statusMean,
          },
          requests: { feed: run.feed, profile: run.profile, like: run.like },
          feed_ratio_to_status: ratio,
          writers: {
            listeners: listenerCount,
            pace_s: options.pace,
            target_plays_per_sec: round1(listenerCount / options.pace),
            poll_interval_s: options.pollInterval > 0 ? options.pollInterval : 'product schedule',
            ...run.writers,
          },
          spotify_stand_in: { latency_ms: options.spotifyLatency, calls: run.standInCalls },
          like_writes: likeWrites,
          cache: run.cache,
          announcements: {
            ...run.heard.counts,
            viewer_page_changes_mean: round1(changesPerViewer),
            seconds_between_viewer_page_changes: secondsBetweenChanges,
          },
          cpu_seconds: run.cpuSeconds,
          load_average: {
            status_before: run.before.load_average,
            window: run.feed.load_average,
            status_after: run.after.load_average,
          },
          goals,
          total_seconds: secondsSince(started),
        };

        const mark = (ok: boolean) => (ok ? '✅' : '❌');
        const cpuCount = os.cpus().length;
        const busiest = Math.max(...run.before.load_average, ...run.feed.load_average);
        const cacheText = (counts: Record<string, number>) =>
          Object.entries(counts)
            .map(([result, n]) => `${n} ${result}`)
            .join(', ') || 'none';
        const cores = (group: string) => round1((run.cpuSeconds[group] ?? 0) / run.windowSeconds);
        const w = report.writers;
        const markdown = [
          `# Load with writes — postgres, scale ${options.scale}`,
          '',
          `${report.machine}. The feed benchmark's world: ${size.users} users × ${size.friendsPerUser} friends, ${world.rows.plays} plays, ${world.rows.saved_tracks} likes, ${world.rows.tracks} tracks.`,
          `${options.duration} s measured after ${options.warmup} s of the same load and writes; ${connections} connections in three autocannon instances at once: the feed ${options.feedConnections} (as fast as answered, ${viewers.length} signed-in viewers in turn, page cache on), public profiles ${options.profileConnections} (at most ${options.profileRate} req/s; ${profileViewers.length} users as a visitor, a friend and a stranger), likes ${options.likeConnections} (at most ${options.likeRate} req/s; ${likes.length} viewers each liking then unliking one song).`,
          `Writers (own process, the product's \`syncRecentPlays\`): ${w.listeners} active listeners, a play every ${w.pace_s} s each on average (target ${w.target_plays_per_sec} plays/s), polled ${options.pollInterval > 0 ? `every ${options.pollInterval} s` : 'as the product schedules them'}: ${w.polls_per_sec} polls/s, **${w.plays_per_sec} plays/s stored**, ${w.plays_per_poll} plays per poll, a poll ${w.poll_p50_ms} ms (p99 ${w.poll_p99_ms} ms), started at most ${w.start_lag_p99_ms} ms late (p99), ${w.errors} errors.`,
          `Spotify: a stand-in on loopback (${options.spotifyLatency} ms added) for \`GET /me/player/recently-played\` and \`PUT\`/\`DELETE /me/tracks\`: ${Object.entries(
            run.standInCalls,
          )
            .map(([endpoint, n]) => `${n} ${endpoint}`)
            .join(', ')}.`,
          `Announced writes in the window: ${run.heard.counts.users} \`u:\` (${run.heard.counts.users_named} users named), ${run.heard.counts.likes} \`l:\` (likes), ${run.heard.counts.catalogue} catalogue, ${run.heard.counts.everything} everything; a viewer's feed changed ${report.announcements.viewer_page_changes_mean} times, once every ${secondsBetweenChanges} s. Feed page cache: ${cacheText(run.cache.feed)}; visitors' profiles: ${cacheText(run.cache.visitor_profiles)}.`,
          `Baseline \`GET /api/status\` (16 connections, no writes): ${run.before.requests_per_sec} req/s before, ${run.after.requests_per_sec} after (p99 ${run.before.latency_p99_ms} / ${run.after.latency_p99_ms} ms); mean ${statusMean}.`,
          `CPU in the window (cores): server ${cores('server')}, PostgreSQL ${cores('postgres')}, writers ${cores('writers')}, load generator ${cores('autocannon')}. Load average: ${run.before.load_average[0]} before, ${run.feed.load_average.join(' → ')} in the window, ${run.after.load_average[1]} after (2 cores, shared with other work).`,
          '',
          markdownTable(
            ['request', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors'],
            [run.feed, run.profile, run.like].map((m) => [
              m.name,
              m.connections,
              m.requests_per_sec,
              m.latency_p50_ms,
              m.latency_p99_ms,
              m.latency_max_ms,
              failures(m),
            ]),
          ),
          '',
          ...(busiest > cpuCount
            ? [
                `**The machine was busy** (load average up to ${busiest} on ${cpuCount} cores): these figures show the share of the machine Earshot got; compare runs made at a load average below the number of cores.`,
                '',
              ]
            : []),
          `Goals: ${mark(goals.feed_p99_under_50_ms)} feed p99 ${run.feed.latency_p99_ms} ms < 50 · ${mark(goals.feed_throughput_at_least_30_percent_of_status)} feed ${run.feed.requests_per_sec} req/s = ${ratio} × status ≥ 0.30 · ${mark(goals.zero_errors)} zero errors.`,
          '',
          `Plans (\`EXPLAIN (ANALYZE, BUFFERS)\` of one feed page and one profile before the load): \`${label}-plans.txt\`. Server CPU per status request: ${cpuMs(run.before, 'server')} ms.`,
        ].join('\n');
        await writeReport(label, { json: report, plans: formatPlans(plans), markdown });
      } finally {
        await announcements.close();
        await writers.kill();
      }
    },
  );
}

await main();
