/**
 * `npm run bench:sync` (issue 7): Earshot's sync engine against the sandbox with 1,000 accounts.
 *
 * 1. The sandbox runs as its own process with a world of --accounts listeners, its clock frozen
 *    (it moves only when the benchmark advances it). Every account connects to Earshot through
 *    Earshot's login service.
 * 2. `main.ts worker` processes (no `serve`: nothing else runs jobs) do the first sync of every
 *    account: recently-played, library, catalogue enrichment.
 * 3. Rounds: the sandbox clock moves --step-min simulated minutes, every account is made due at
 *    once, and the workers drain the polls. Measured per round: polls, plays stored, Spotify calls
 *    by endpoint (the workers' /metrics), each poll's duration (the workers' job logs). Rounds run
 *    with the sandbox answering at once and with --latency ms added to every call, with one
 *    worker and then two.
 * 4. Completeness: every account's stored plays against the sandbox world's plays.
 * 5. The schedule: `nextRecentInterval` over --sim-hours simulated hours for every account,
 *    giving the polls each listener needs per hour, and any play lost.
 *
 * Options: --accounts N (1000), --quick (200 accounts, 1 round), --rounds N (3), --step-min N
 * (30), --latency ms (100), --sim-hours N (24), --postgres URL. Writes
 * bench/results/sync.{json,md} (sync-<accounts>.* for other sizes).
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_CLIENT_ID } from '@earshot/spotify-sandbox/demo-client';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import pg from 'pg';
import { standInForAutovacuum } from '../lib/postgres';
import { freePort } from '../lib/server';
import {
  REPO_ROOT,
  SERVER_MAIN,
  runTs,
  sleep,
  startTs,
  waitForOutput,
  type Child,
} from '../import/support/processes';
import { REDIRECT_URI, connectAccounts } from './connect';
import { simulateSchedule, type ScheduleSummary } from './schedule';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string' },
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    'step-min': { type: 'string', default: '30' },
    latency: { type: 'string', default: '100' },
    'sim-hours': { type: 'string', default: '24' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
  },
  strict: true,
});
const accounts = Number(values.accounts ?? (values.quick ? 200 : 1000));
const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
const stepMs = Number(values['step-min']) * 60_000;
const latencyMs = Number(values.latency);
const simHours = Number(values['sim-hours']);
const START = Date.parse('2026-11-20T19:00:00Z');
/** Polls per second the goal needs: 10,000 active users at the schedule's polls per hour. */
const GOAL_USERS = 10_000;
const LIBRARY_INTERVAL_MS = 6 * 3_600_000;
const log = (line: string) => console.log(line);

// ---------------------------------------------------------------------------------------------

interface JobLog {
  worker: number;
  job: string;
  endMs: number;
  ms: number;
  fetched?: number;
  stored?: number;
}

const jobs: JobLog[] = [];
/** Jobs that failed (logged at error level), by queue: their accounts are retried later. */
const failures: { job: string; message: string }[] = [];

/** An error message without the query and parameters drizzle puts before the cause. */
function briefly(message: string): string {
  const cause = message.startsWith('Failed query') ? /: ([^:]+)$/.exec(message)?.[1] : undefined;
  return (cause ?? message.split('\n')[0] ?? '').slice(0, 120);
}

function onWorkerLine(worker: number) {
  return (line: string) => {
    if (!line.startsWith('{')) return;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (typeof entry.job === 'string' && Number(entry.level) >= 50) {
        const error = entry.err as { message?: string } | undefined;
        failures.push({ job: entry.job, message: briefly(error?.message ?? String(entry.msg)) });
      }
      if (typeof entry.job !== 'string' || typeof entry.ms !== 'number') return;
      jobs.push({
        worker,
        job: entry.job,
        endMs: Number(entry.time),
        ms: entry.ms,
        fetched: typeof entry.fetched === 'number' ? entry.fetched : undefined,
        stored: typeof entry.stored === 'number' ? entry.stored : undefined,
      });
    } catch {
      // not a log line
    }
  };
}

interface Worker {
  child: Child;
  metricsUrl: string;
}

type Calls = Record<string, number>;

/** Spotify calls by endpoint (all statuses) so far, summed over the workers. */
async function spotifyCalls(workers: readonly Worker[]): Promise<Calls> {
  const calls: Calls = {};
  for (const worker of workers) {
    const text = await (await fetch(worker.metricsUrl)).text();
    for (const match of text.matchAll(
      /^earshot_spotify_requests_total\{endpoint="([^"]+)",status="(\d+)"\} (\d+)/gm,
    )) {
      const endpoint = match[1]!;
      calls[endpoint] = (calls[endpoint] ?? 0) + Number(match[3]);
    }
  }
  return calls;
}

function minus(after: Calls, before: Calls): Calls {
  return Object.fromEntries(
    Object.entries(after)
      .map(([endpoint, count]) => [endpoint, count - (before[endpoint] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

const sum = (calls: Calls) => Object.values(calls).reduce((total, count) => total + count, 0);

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

// ---------------------------------------------------------------------------------------------

const dbName = 'earshot_bench_sync';
const admin = `${values.postgres}/postgres`;
const databaseUrl = `${values.postgres}/${dbName}`;
const encryptionKey = randomBytes(32).toString('hex');
const loadBefore = os.loadavg()[0] ?? 0;

log(`bench:sync — ${accounts} accounts (load average ${loadBefore.toFixed(1)})`);
{
  const client = new pg.Client(admin);
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${dbName}`);
  await client.end();
}
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const children: Child[] = [];
const workers: Worker[] = [];

async function scalar(text: string, params: unknown[] = []): Promise<number> {
  const result = await db.query<{ n: number }>(text, params);
  return Number(result.rows[0]?.n ?? 0);
}

async function setLatency(sandboxUrl: string, ms: number) {
  const response = await fetch(`${sandboxUrl}/control/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seed: 1, rules: ms > 0 ? [{ type: 'latency', ms, jitterMs: 0 }] : [] }),
  });
  if (!response.ok) throw new Error(`faults: ${response.status} ${await response.text()}`);
}

async function advanceClock(sandboxUrl: string, ms: number) {
  const response = await fetch(`${sandboxUrl}/control/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'advance', ms }),
  });
  if (!response.ok) throw new Error(`clock: ${response.status} ${await response.text()}`);
}

async function startWorker(index: number, sandboxUrl: string): Promise<Worker> {
  const port = await freePort();
  const child = startTs(
    SERVER_MAIN,
    ['worker'],
    {
      DATABASE_URL: databaseUrl,
      ENCRYPTION_KEY: encryptionKey,
      SPOTIFY_CLIENT_ID: DEMO_CLIENT_ID,
      SPOTIFY_API_URL: `${sandboxUrl}/v1`,
      SPOTIFY_ACCOUNTS_URL: `${sandboxUrl}/accounts`,
      PORT: String(port),
      LOG_LEVEL: 'info',
    },
    { onLine: onWorkerLine(index) },
  );
  children.push(child);
  await waitForOutput(child, /running jobs/);
  const worker = { child, metricsUrl: `http://127.0.0.1:${port}/metrics` };
  workers.push(worker);
  return worker;
}

/** Waits until `done()` holds, checking every 200 ms; gives up after `timeoutMs`. */
async function until(done: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    for (const child of children) {
      if (child.process.exitCode !== null) throw new Error(`a process died:\n${child.output()}`);
    }
    await sleep(200);
  }
}

interface RoundResult {
  workers: number;
  latencyMs: number;
  polls: number;
  /** From making every account due to the last poll stored (dispatch included). */
  roundSec: number;
  /** First poll's start to last poll's end: the drain rate. */
  busySec: number;
  pollsPerSec: number;
  playsStored: number;
  playsPerSec: number;
  calls: Calls;
  recentCallsPerPoll: number;
  pollMs: { p50: number; p95: number; max: number; mean: number };
}

const rows: RoundResult[] = [];
let simulatedMs = START;

async function round(sandboxUrl: string, latency: number): Promise<RoundResult> {
  await advanceClock(sandboxUrl, stepMs);
  simulatedMs += stepMs;
  const playsBefore = await scalar(`SELECT count(*)::int AS n FROM plays`);
  const callsBefore = await spotifyCalls(workers);
  const firstJob = jobs.length;
  const started = Date.now();
  const since = await db.query<{ at: Date }>(
    `UPDATE spotify_accounts SET recent_due_at = now() WHERE status = 'active' RETURNING now() AS at`,
  );
  const at = since.rows[0]?.at;
  await until(
    async () =>
      (await scalar(
        `SELECT count(*)::int AS n FROM spotify_accounts WHERE recent_synced_at >= $1`,
        [at],
      )) >= accounts,
    15 * 60_000,
    'the round of polls',
  );
  const roundSec = (Date.now() - started) / 1000;
  await sleep(300);
  const polls = jobs.slice(firstJob).filter((job) => job.job === 'sync-recent');
  const calls = minus(await spotifyCalls(workers), callsBefore);
  const playsStored = (await scalar(`SELECT count(*)::int AS n FROM plays`)) - playsBefore;
  const busySec =
    (Math.max(...polls.map((job) => job.endMs)) -
      Math.min(...polls.map((job) => job.endMs - job.ms))) /
    1000;
  const durations = polls.map((job) => job.ms);
  return {
    workers: workers.length,
    latencyMs: latency,
    polls: polls.length,
    roundSec,
    busySec,
    pollsPerSec: polls.length / busySec,
    playsStored,
    playsPerSec: playsStored / busySec,
    calls,
    recentCallsPerPoll: (calls['GET /me/player/recently-played'] ?? 0) / Math.max(1, polls.length),
    pollMs: {
      p50: percentile(durations, 50),
      p95: percentile(durations, 95),
      max: Math.max(...durations),
      mean: durations.reduce((total, ms) => total + ms, 0) / Math.max(1, durations.length),
    },
  };
}

function describeRound(result: RoundResult): string {
  return (
    `    ${result.workers} worker(s), latency ${result.latencyMs} ms: ${result.polls} polls in ` +
    `${result.busySec.toFixed(1)} s (${result.pollsPerSec.toFixed(1)}/s; round ${result.roundSec.toFixed(1)} s), ` +
    `${result.playsStored} plays (${result.playsPerSec.toFixed(0)}/s), poll p50 ${result.pollMs.p50} ms ` +
    `p95 ${result.pollMs.p95} ms, ${sum(result.calls)} calls`
  );
}

let sandbox: Child | undefined;
let autovacuum: Awaited<ReturnType<typeof standInForAutovacuum>> | undefined;
try {
  await runTs(SERVER_MAIN, ['migrate'], {
    DATABASE_URL: databaseUrl,
    ENCRYPTION_KEY: encryptionKey,
  });
  autovacuum = await standInForAutovacuum(databaseUrl);
  if (autovacuum.standingIn) {
    log('  autovacuum is off on this PostgreSQL: ANALYZE runs every 15 s in its place');
  }

  let started = performance.now();
  sandbox = startTs(
    new URL('./sandbox.ts', import.meta.url).pathname,
    [
      '--accounts',
      String(accounts),
      '--at',
      new Date(START).toISOString(),
      '--redirect-uri',
      REDIRECT_URI,
    ],
    {},
  );
  children.push(sandbox);
  await waitForOutput(sandbox, /^SANDBOX /m);
  const sandboxUrl = /^SANDBOX (\S+)/m.exec(sandbox.output())![1]!;
  log(
    `  sandbox with ${accounts} accounts at ${sandboxUrl} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  const world = createWorld({ sizes: { accounts } });
  const accountIds = world.accounts.map((account) => account.id);
  started = performance.now();
  const users = await connectAccounts({
    databaseUrl,
    encryptionKey,
    sandboxUrl,
    accounts: accountIds,
  });
  const connectSec = (performance.now() - started) / 1000;
  log(`  connected ${users.size} accounts through the login service in ${connectSec.toFixed(1)} s`);

  // First sync: every account is due (recently-played and library), then enrichment follows.
  log('  first sync (1 worker): recently-played, library, catalogue');
  await setLatency(sandboxUrl, 0);
  started = performance.now();
  await startWorker(1, sandboxUrl);
  const firstCallsBefore = await spotifyCalls(workers);
  await until(
    async () =>
      (await scalar(
        `SELECT count(*)::int AS n FROM spotify_accounts
         WHERE recent_synced_at IS NOT NULL AND library_synced_at IS NOT NULL`,
      )) >= accounts,
    60 * 60_000,
    'the first sync',
  );
  const firstRecentLibrarySec = (performance.now() - started) / 1000;
  await until(
    async () =>
      (await scalar(
        `SELECT (SELECT count(*) FROM artists WHERE enriched_at IS NULL)
              + (SELECT count(*) FROM tracks WHERE enriched_at IS NULL) AS n`,
      )) === 0,
    30 * 60_000,
    'catalogue enrichment',
  );
  const firstSync = {
    recentAndLibrarySec: firstRecentLibrarySec,
    withEnrichmentSec: (performance.now() - started) / 1000,
    calls: minus(await spotifyCalls(workers), firstCallsBefore),
    plays: await scalar(`SELECT count(*)::int AS n FROM plays`),
    savedTracks: await scalar(`SELECT count(*)::int AS n FROM saved_tracks`),
    libraryJobs: jobs.filter((job) => job.job === 'sync-library').length,
    libraryMs: {
      p50: percentile(
        jobs.filter((job) => job.job === 'sync-library').map((job) => job.ms),
        50,
      ),
    },
  };
  log(
    `    ${firstSync.recentAndLibrarySec.toFixed(1)} s (with enrichment ${firstSync.withEnrichmentSec.toFixed(1)} s), ` +
      `${firstSync.plays} plays, ${firstSync.savedTracks} saved tracks, ${sum(firstSync.calls)} calls`,
  );

  for (const workerCount of [1, 2]) {
    if (workerCount === 2) {
      await startWorker(2, sandboxUrl);
      log('  second worker started');
    }
    for (const latency of [0, latencyMs]) {
      await setLatency(sandboxUrl, latency);
      for (let index = 0; index < rounds; index++) {
        const result = await round(sandboxUrl, latency);
        rows.push(result);
        log(describeRound(result));
      }
    }
  }
  await setLatency(sandboxUrl, 0);

  // Completeness: every play of at least 30 s the world has for each account, from the last 50
  // before the first poll to the last round, stored exactly once.
  const stored = await db.query<{ spotify_id: string; n: number }>(
    `SELECT u.spotify_id, count(p.*)::int AS n FROM users u
     LEFT JOIN plays p ON p.user_id = u.id AND p.source = 'api' GROUP BY u.spotify_id`,
  );
  const storedBy = new Map(stored.rows.map((row) => [row.spotify_id, row.n]));
  let expectedTotal = 0;
  let missing = 0;
  let extra = 0;
  let complete = 0;
  for (const id of accountIds) {
    const expected =
      world.recentPlays(id, START + 1, 50).length +
      world.playsBetween(id, START, simulatedMs).filter((play) => play.msPlayed >= 30_000).length;
    const have = storedBy.get(id) ?? 0;
    expectedTotal += expected;
    if (have === expected) complete++;
    missing += Math.max(0, expected - have);
    extra += Math.max(0, have - expected);
  }
  const completeness = {
    users: accountIds.length,
    complete,
    expectedPlays: expectedTotal,
    missing,
    extra,
  };
  log(
    `  completeness: ${complete}/${accountIds.length} accounts complete, ` +
      `${expectedTotal - missing} of ${expectedTotal} plays stored, ${extra} extra`,
  );

  // A later library sync (incremental: saved tracks since the newest known, follows,
  // playlists) after 6 simulated hours, as scheduled; the full reconcile is like the first sync.
  await advanceClock(sandboxUrl, LIBRARY_INTERVAL_MS);
  const libraryCallsBefore = await spotifyCalls(workers);
  const libraryFirstJob = jobs.length;
  started = performance.now();
  const libraryAt = (
    await db.query<{ at: Date }>(
      `UPDATE spotify_accounts SET library_due_at = now() WHERE status = 'active' RETURNING now() AS at`,
    )
  ).rows[0]?.at;
  await until(
    async () =>
      (await scalar(
        `SELECT count(*)::int AS n FROM spotify_accounts WHERE library_synced_at >= $1`,
        [libraryAt],
      )) >= accounts,
    30 * 60_000,
    'the library round',
  );
  await sleep(300);
  const libraryJobs = jobs.slice(libraryFirstJob).filter((job) => job.job === 'sync-library');
  const laterLibrary = {
    sec: (performance.now() - started) / 1000,
    calls: minus(await spotifyCalls(workers), libraryCallsBefore),
    jobs: libraryJobs.length,
    jobMsP50: percentile(
      libraryJobs.map((job) => job.ms),
      50,
    ),
  };
  log(
    `  later library sync (${workers.length} workers, 6 simulated hours on): ${laterLibrary.jobs} jobs in ` +
      `${laterLibrary.sec.toFixed(1)} s, p50 ${laterLibrary.jobMsP50} ms, ${sum(laterLibrary.calls)} calls`,
  );

  started = performance.now();
  const schedule: ScheduleSummary = simulateSchedule(world, accountIds, START, simHours);
  log(
    `  schedule over ${simHours} simulated hours: ${schedule.pollsPerUserHour.toFixed(2)} polls/user/hour ` +
      `(active users ${schedule.pollsPerActiveUserHour.toFixed(2)}, busiest ${schedule.maxPollsPerUserHour.toFixed(2)}), ` +
      `${schedule.lostPlays} plays lost (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  // ---- Report ----
  const at = (workerCount: number, latency: number) =>
    rows.filter((row) => row.workers === workerCount && row.latencyMs === latency);
  const mean = (list: RoundResult[], pick: (row: RoundResult) => number) =>
    list.reduce((total, row) => total + pick(row), 0) / Math.max(1, list.length);
  const configs = [1, 2].flatMap((workerCount) =>
    [0, latencyMs].map((latency) => {
      const list = at(workerCount, latency);
      return {
        workers: workerCount,
        latencyMs: latency,
        pollsPerSec: mean(list, (row) => row.pollsPerSec),
        playsPerSec: mean(list, (row) => row.playsPerSec),
        pollMsP50: mean(list, (row) => row.pollMs.p50),
        pollMsP95: mean(list, (row) => row.pollMs.p95),
        callsPerPoll: mean(list, (row) => sum(row.calls) / Math.max(1, row.polls)),
        recentCallsPerPoll: mean(list, (row) => row.recentCallsPerPoll),
      };
    }),
  );
  const one = configs.find((config) => config.workers === 1 && config.latencyMs === latencyMs)!;
  const oneFast = configs.find((config) => config.workers === 1 && config.latencyMs === 0)!;
  // Calls each user needs per hour: polls (each its recently-played calls); the library every
  // 6 h, a full pass (as the first sync) once a day and incremental ones (as measured) between;
  // one token refresh an hour (Accounts service).
  const libraryCalls = (calls: Calls) =>
    ['GET /me/tracks', 'GET /me/following', 'GET /me/playlists']
      .map((endpoint) => calls[endpoint] ?? 0)
      .reduce((total, count) => total + count, 0) / accounts;
  const callsPerUserHour = {
    recentlyPlayed: schedule.pollsPerActiveUserHour * one.recentCallsPerPoll,
    library: (libraryCalls(firstSync.calls) + 3 * libraryCalls(laterLibrary.calls)) / 24,
    tokenRefresh: 1,
  };
  const webApiPerUserHour = callsPerUserHour.recentlyPlayed + callsPerUserHour.library;
  const neededPollsPerSec = (GOAL_USERS * schedule.pollsPerActiveUserHour) / 3600;
  const capacityUsers = (one.pollsPerSec * 3600) / schedule.pollsPerActiveUserHour;
  const spotifyShare = 1 - oneFast.pollMsP50 / Math.max(1, one.pollMsP50);
  const goals = {
    keepsUp: capacityUsers >= GOAL_USERS,
    complete: completeness.missing === 0 && completeness.extra === 0 && schedule.lostPlays === 0,
    latencyDominated: spotifyShare >= 0.5,
  };

  const table = [
    '| workers | Spotify latency | polls/s | plays stored/s | poll p50 ms | poll p95 ms | Spotify calls/poll |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...configs.map(
      (config) =>
        `| ${config.workers} | ${config.latencyMs} ms | ${config.pollsPerSec.toFixed(1)} | ` +
        `${config.playsPerSec.toFixed(0)} | ${config.pollMsP50.toFixed(0)} | ${config.pollMsP95.toFixed(0)} | ` +
        `${config.callsPerPoll.toFixed(2)} |`,
    ),
  ];
  const summary = [
    `- Schedule (${simHours} simulated hours, ${schedule.users} listeners, ${schedule.activeUsers} active): ` +
      `${schedule.pollsPerActiveUserHour.toFixed(2)} polls per active user per hour ` +
      `(busiest ${schedule.maxPollsPerUserHour.toFixed(2)}), ${schedule.playsPerUserHour.toFixed(2)} plays/user/hour, ` +
      `${schedule.fullWindows} full windows, ${schedule.lostPlays} plays lost.`,
    `- Calls per user per hour: recently-played ${callsPerUserHour.recentlyPlayed.toFixed(2)}, ` +
      `library ${callsPerUserHour.library.toFixed(2)} (every 6 h: ${libraryCalls(laterLibrary.calls).toFixed(1)} calls, ` +
      `${libraryCalls(firstSync.calls).toFixed(1)} for the daily full pass), Web API total ${webApiPerUserHour.toFixed(2)}; ` +
      `plus ${callsPerUserHour.tokenRefresh} token refresh (Accounts service). 10,000 users: ` +
      `${Math.round(GOAL_USERS * webApiPerUserHour).toLocaleString('en')} Web API calls/hour ` +
      `(${Math.round((GOAL_USERS * webApiPerUserHour) / 120)} per 30-s window).`,
    `- 10,000 active users need ${neededPollsPerSec.toFixed(2)} polls/s; one worker drains ` +
      `${one.pollsPerSec.toFixed(1)} polls/s at ${latencyMs} ms latency: capacity ≈ ` +
      `${Math.round(capacityUsers).toLocaleString('en')} users — ${goals.keepsUp ? 'met' : 'MISSED'}.`,
    `- Histories complete: ${completeness.complete}/${completeness.users} accounts, ` +
      `${completeness.missing} plays missing, ${completeness.extra} extra — ${goals.complete ? 'met' : 'MISSED'}.`,
    `- Per poll: ${oneFast.pollMsP50.toFixed(0)} ms ours (latency 0) vs ${one.pollMsP50.toFixed(0)} ms at ` +
      `${latencyMs} ms latency: Spotify's share ${(spotifyShare * 100).toFixed(0)} % — ` +
      `${goals.latencyDominated ? 'met' : 'MISSED'}.`,
    `- Library syncs (every 6 h): ${laterLibrary.jobMsP50} ms each (p50, latency 0), so one worker's ` +
      `library queue runs ≈ ${Math.round(3_600_000 / Math.max(1, laterLibrary.jobMsP50)).toLocaleString('en')} an hour; ` +
      `10,000 users need ${Math.round(GOAL_USERS / 6).toLocaleString('en')}.`,
    `- Failed jobs (retried later, nothing lost): ${failures.length}` +
      `${failures.length > 0 ? ` (${[...new Set(failures.map((failure) => `${failure.job}: ${failure.message}`))].slice(0, 3).join('; ')})` : ''}.`,
    ...(autovacuum.standingIn
      ? [
          '- This PostgreSQL runs with autovacuum off; the benchmark ran `ANALYZE` every 15 s in its place, as production autovacuum would keep the statistics of the growing tables.',
        ]
      : []),
    `- First sync of ${accounts} accounts (1 worker, latency 0): ${firstSync.recentAndLibrarySec.toFixed(1)} s ` +
      `(${firstSync.withEnrichmentSec.toFixed(1)} s with enrichment), ${firstSync.plays} plays, ` +
      `${sum(firstSync.calls)} calls (${Object.entries(firstSync.calls)
        .map(([endpoint, count]) => `${endpoint} ${count}`)
        .join(', ')}).`,
  ];
  log('');
  for (const line of [...table, '', ...summary]) log(line);

  const environment = {
    date: new Date().toISOString(),
    commit: git(['rev-parse', '--short', 'HEAD']),
    dirty:
      git(['status', '--porcelain', '--', 'apps/server/src', 'packages/spotify-sandbox/src']) !==
      '',
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: { before: loadBefore, after: os.loadavg()[0] ?? 0 },
  };
  const name = accounts === 1000 ? 'sync' : `sync-${accounts}`;
  const resultsDir = path.join(REPO_ROOT, 'bench/results');
  await mkdir(resultsDir, { recursive: true });
  await writeFile(
    path.join(resultsDir, `${name}.json`),
    `${JSON.stringify(
      {
        benchmark: 'sync',
        environment,
        settings: {
          accounts,
          rounds,
          stepMinutes: stepMs / 60_000,
          latencyMs,
          simHours,
          start: new Date(START).toISOString(),
        },
        connectSec,
        firstSync,
        laterLibrary,
        rounds: rows,
        configs,
        completeness,
        failures,
        schedule,
        callsPerUserHour,
        capacity: { neededPollsPerSec, oneWorkerUsers: capacityUsers, spotifyShare },
        goals,
      },
      null,
      2,
    )}\n`,
  );
  await writeFile(
    path.join(resultsDir, `${name}.md`),
    [
      `# bench:sync — ${accounts} accounts`,
      '',
      `${environment.date}, commit ${environment.commit}${environment.dirty ? ' (modified)' : ''}, Node ` +
        `${environment.node}, ${environment.cpus} CPUs, load average ${loadBefore.toFixed(1)} → ` +
        `${environment.loadAverage.after.toFixed(1)}. Rounds of ${stepMs / 60_000} simulated minutes, ` +
        `every account polled each round; ${rounds} round(s) per line.`,
      '',
      ...table,
      '',
      ...summary,
      '',
    ].join('\n'),
  );
  log(`\nwritten: bench/results/${name}.json, bench/results/${name}.md`);
} finally {
  await autovacuum?.stop();
  for (const child of children.reverse()) await child.stop();
  await db.end();
  const client = new pg.Client(admin);
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await client.end();
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
