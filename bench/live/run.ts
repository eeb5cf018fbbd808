import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { applyMigrations, connectPostgres } from '../../apps/server/src/db/client';
import { storeTracks } from '../../apps/server/src/services/catalog';
import { loadAverage } from '../lib/cpu';
import { readOptions } from '../lib/options';
import { dropDatabase, recreateDatabase } from '../lib/postgres';
import { machineDescription, markdownTable, writeJson, writeResult } from '../lib/report';
import { startEarshot } from '../lib/server';
import { createSessions } from '../lib/sessions';
import { openStreams, type Stream } from './streams';

/**
 * Issue 17: live streams at scale. `viewers` open `GET /api/live` streams on one (then two) API
 * processes, each viewer with `friends` friends among the others; one user with `friends` friends
 * among them plays `plays` times; for each play, the delay from the INSERT's commit (as the
 * writer sees it return) to each friend's socket, and to the last one. Also the server's memory
 * per open stream. `--capacity 12500,15000,…` then goes on, on one process, adding streams up to
 * each count and measuring again, until the p99 passes 1 s.
 */
const options = readOptions({
  server: 'postgres://postgres@127.0.0.1:5432/postgres',
  viewers: 10_000,
  friends: 150,
  plays: 30,
  processes: '1,2',
  capacity: '',
});

const DATABASE = 'earshot_bench_live';
const ENCRYPTION_KEY = '0'.repeat(64);
const PLAY_TIMEOUT_MS = 15_000;
/** The fan-out delay the issue allows (p99, to the last friend's socket). */
const GOAL_MS = 1_000;
/** Streams the bench process holds itself (the measured friends among them); children the rest. */
const STREAMS_HERE = 5_000;
const STREAMS_PER_CHILD = 8_000;

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const round = (ms: number) => Math.round(ms * 10) / 10;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(line?.[1] ?? 0) / 1024;
}

/** Why stream openings were refused (then tried again), for the report. */
const refusals: string[] = [];

/** A child process holding streams (`hold-streams.ts`), asked one thing at a time. */
class StreamHolder {
  readonly #child: ChildProcess;
  held = 0;

  constructor() {
    this.#child = fork(new URL('./hold-streams.ts', import.meta.url).pathname, {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  }

  #ask<T>(message: object): Promise<T> {
    return new Promise((resolve, reject) => {
      this.#child.once('message', (answer: T & { error?: string }) =>
        answer.error ? reject(new Error(answer.error)) : resolve(answer),
      );
      this.#child.send(message);
    });
  }

  async open(targets: { url: string; cookie: string }[]): Promise<void> {
    const answer = await this.#ask<{ opened: number; refusals: number }>({ open: targets });
    this.held = answer.opened;
    for (let i = 0; i < answer.refusals; i++) refusals.push('refused in a child process');
  }

  async reached(): Promise<number> {
    return (await this.#ask<{ reached: number }>({ count: true })).reached;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#child.once('exit', () => resolve());
      this.#child.send({ close: true });
    });
  }
}

interface Measure {
  streams: number;
  memory_kb_per_stream: number;
  server_rss_mb: number[];
  last_socket_ms: { p50: number; p99: number; max: number };
  every_socket_ms: { p50: number; p99: number };
  deliveries_missing: number;
  strangers_with_a_play: number;
  load_average: number;
}

/** Viewers, each with `friends` friends among the viewers (a ring), the actor's among them. */
async function prepare(url: string, count: number) {
  const database = connectPostgres(url, 4);
  await applyMigrations(database);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const ids = await pool.query<{ id: string }>(
    `INSERT INTO users (spotify_id, username, name)
     SELECT 'bench-' || n, 'user-' || n, 'User ' || n FROM generate_series(0, $1) AS n
     RETURNING id`,
    [count],
  );
  const [actor, ...viewers] = ids.rows.map((row) => row.id) as [string, ...string[]];
  const half = Math.floor(options.friends / 2);
  const client = await pool.connect();
  try {
    // The announcing triggers stay off while the graph is made: nobody listens yet.
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(
      `INSERT INTO friendships (user_id, friend_id)
       SELECT v[i], v[1 + (i - 1 + k) % n] FROM (SELECT $1::uuid[] AS v, $2::int AS n) g,
         generate_series(1, n) AS i, generate_series(1, $3::int) AS k
       UNION ALL
       SELECT v[1 + (i - 1 + k) % n], v[i] FROM (SELECT $1::uuid[] AS v, $2::int AS n) g,
         generate_series(1, n) AS i, generate_series(1, $3::int) AS k`,
      [viewers, viewers.length, half],
    );
    await client.query(
      `INSERT INTO friendships (user_id, friend_id)
       SELECT $1::uuid, f FROM unnest($2::uuid[]) f UNION ALL SELECT f, $1::uuid FROM unnest($2::uuid[]) f`,
      [actor, viewers.slice(0, options.friends)],
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  await pool.query('ANALYZE');
  const artist = { id: 'benchLiveArtist00000001', name: 'Bench Band' };
  const [trackId] = await storeTracks(database.db, [
    {
      id: 'benchLiveTrack000000001',
      name: 'Bench Song',
      album: { id: 'benchLiveAlbum000000001', name: 'Bench Album', artists: [artist], images: [] },
      artists: [artist],
      duration_ms: 200_000,
    },
  ]);
  const cookies = await createSessions(pool, viewers);
  await database.close();
  return { pool, actor, trackId: trackId!, cookies };
}

async function run(processCount: number, steps: number[]) {
  const total = Math.max(options.viewers, ...steps);
  console.log(`\n${processCount} process(es): preparing ${total} viewers…`);
  const url = await recreateDatabase(options.server, DATABASE);
  const { pool, actor, trackId, cookies } = await prepare(url, total);

  const servers: Awaited<ReturnType<typeof startEarshot>>[] = [];
  for (let i = 0; i < processCount; i++) {
    servers.push(
      await startEarshot({ DATABASE_URL: url, ENCRYPTION_KEY, LIVE_HEARTBEAT_SEC: '20' }),
    );
  }
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const streams: Stream[] = [];
  const holders: StreamHolder[] = [];
  const measures: Measure[] = [];
  let playedAt = Date.now() - 60_000;
  let opened = 0;
  try {
    const rssBefore = servers.map((server) => rssMb(server.pid));
    /** Opens streams for viewers `opened`…`upTo - 1`, alternating between the processes. */
    const openUpTo = async (upTo: number) => {
      const targets = cookies
        .slice(opened, upTo)
        .map((cookie, k) => ({ url: servers[(opened + k) % processCount]!.url, cookie }));
      const here = targets.splice(0, Math.max(0, STREAMS_HERE - streams.length));
      streams.push(...(await openStreams(here, agent, refusals)));
      while (targets.length > 0) {
        let holder = holders.at(-1);
        if (!holder || holder.held >= STREAMS_PER_CHILD)
          holders.push((holder = new StreamHolder()));
        await holder.open(targets.splice(0, STREAMS_PER_CHILD - holder.held));
      }
      opened = upTo;
    };
    /** The actor plays `options.plays` times; the delays to the friends' sockets. */
    const measure = async (): Promise<Measure> => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const rss = servers.map((server) => rssMb(server.pid));
      const perStreamKb =
        ((rss.reduce((a, b) => a + b, 0) - rssBefore.reduce((a, b) => a + b, 0)) * 1024) / opened;
      const lastSocket: number[] = [];
      const everySocket: number[] = [];
      let lost = 0;
      // The friends are the first viewers, whose streams this process holds.
      const friendStreams = streams.slice(0, options.friends);
      for (let i = 0; i < options.plays; i++) {
        const date = new Date((playedAt += 1_000));
        await pool.query(
          `INSERT INTO plays (user_id, played_at, track_id, source) VALUES ($1, $2, $3, 'api')`,
          [actor, date, trackId],
        );
        const committed = performance.now();
        const key = date.toISOString();
        const deadline = committed + PLAY_TIMEOUT_MS;
        while (friendStreams.some((s) => !s.arrivals.has(key)) && performance.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const delays = friendStreams.flatMap((s) => {
          const at = s.arrivals.get(key);
          return at === undefined ? [] : [at - committed];
        });
        lost += friendStreams.length - delays.length;
        everySocket.push(...delays);
        lastSocket.push(delays.length > 0 ? Math.max(...delays) : PLAY_TIMEOUT_MS);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      let strangers = streams.slice(options.friends).filter((s) => s.arrivals.size > 0).length;
      for (const holder of holders) strangers += await holder.reached();
      const result: Measure = {
        streams: opened,
        memory_kb_per_stream: round(perStreamKb),
        server_rss_mb: rss.map(round),
        last_socket_ms: {
          p50: round(percentile(lastSocket, 50)),
          p99: round(percentile(lastSocket, 99)),
          max: round(Math.max(...lastSocket)),
        },
        every_socket_ms: {
          p50: round(percentile(everySocket, 50)),
          p99: round(percentile(everySocket, 99)),
        },
        deliveries_missing: lost,
        strangers_with_a_play: strangers,
        load_average: loadAverage(),
      };
      console.log(result);
      return result;
    };

    const opening = performance.now();
    await openUpTo(options.viewers);
    const openSeconds = (performance.now() - opening) / 1000;
    console.log(`${opened} streams open in ${openSeconds.toFixed(1)} s`);
    measures.push(await measure());
    for (const step of steps) {
      if (measures.at(-1)!.last_socket_ms.p99 > GOAL_MS) break;
      try {
        await openUpTo(step);
      } catch (error) {
        console.log(`stopped opening streams at ${step}: ${(error as Error).message}`);
        break;
      }
      measures.push(await measure());
    }
    return {
      processes: processCount,
      friends_per_viewer: options.friends,
      open_seconds: round(openSeconds),
      server_rss_mb_before: rssBefore.map(round),
      plays: options.plays,
      measures,
      refused_then_retried: refusals.splice(0).length,
    };
  } finally {
    for (const stream of streams) stream.request.destroy();
    agent.destroy();
    for (const holder of holders) await holder.close();
    for (const server of servers) await server.stop();
    await pool.end();
    await dropDatabase(options.server, DATABASE);
  }
}

const steps = String(options.capacity)
  .split(',')
  .filter(Boolean)
  .map(Number)
  .filter((step) => step > options.viewers);
const runs = [];
for (const count of String(options.processes).split(',').map(Number)) {
  runs.push(await run(count, count === 1 ? steps : []));
}
await writeJson(steps.length > 0 ? 'live-capacity.json' : 'live.json', runs);
const rows = runs.flatMap((r) =>
  r.measures.map((m) => [
    String(r.processes),
    String(m.streams),
    `${m.last_socket_ms.p50} / ${m.last_socket_ms.p99} / ${m.last_socket_ms.max}`,
    String(m.every_socket_ms.p99),
    String(m.memory_kb_per_stream),
    String(m.deliveries_missing),
    String(m.strangers_with_a_play),
    String(m.load_average),
  ]),
);
const markdown =
  `# Live streams (issue 17)\n\n${await machineDescription()}\n\n` +
  `Open streams of viewers with ${options.friends} friends each; a play by a user with ` +
  `${options.friends} friends online, ${options.plays} plays per row; delay from the INSERT's ` +
  `commit to the sockets. Goal: last socket p99 < ${GOAL_MS} ms.\n\n` +
  markdownTable(
    [
      'processes',
      'streams',
      'last socket ms p50 / p99 / max',
      'any socket p99 ms',
      'server kB per stream',
      'missing',
      'strangers reached',
      'load avg',
    ],
    rows,
  );
await writeResult(steps.length > 0 ? 'live-capacity.md' : 'live.md', markdown);
console.log(`\n${markdown}\n`);
