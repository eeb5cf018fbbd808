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

/**
 * Issue 17: live streams at scale. `viewers` open `GET /api/live` streams on one (then two) API
 * processes; one user with `friends` friends among them plays `plays` times; for each play, the
 * delay from the INSERT's commit (as the writer sees it return) to each friend's socket, and to
 * the last one. Also the server's memory per open stream.
 */
const options = readOptions({
  server: 'postgres://postgres@127.0.0.1:5432/postgres',
  viewers: 10_000,
  friends: 150,
  plays: 30,
  processes: '1,2',
});

const DATABASE = 'earshot_bench_live';
const ENCRYPTION_KEY = '0'.repeat(64);
const PLAY_TIMEOUT_MS = 15_000;

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

interface Stream {
  request: http.ClientRequest;
  /** Arrival time of each play (by its date) this stream received. */
  arrivals: Map<string, number>;
}

/** Opens a stream (trying again a few times if refused) and resolves once it is `ready`. */
async function openStream(baseUrl: string, cookie: string, agent: http.Agent): Promise<Stream> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openStreamOnce(baseUrl, cookie, agent);
    } catch (error) {
      if (attempt >= 3) throw error;
      refusals.push((error as Error).message);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** Why stream openings were refused (then tried again), for the report. */
const refusals: string[] = [];

function openStreamOnce(baseUrl: string, cookie: string, agent: http.Agent): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const arrivals = new Map<string, number>();
    let ready = false;
    let buffer = '';
    const request = http.get(`${baseUrl}/api/live`, { headers: { cookie }, agent }, (response) => {
      if (response.statusCode !== 200) {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          reject(new Error(`GET /api/live answered ${response.statusCode}: ${body.slice(0, 200)}`)),
        );
        return;
      }
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const now = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: ready')) {
            if (!ready) resolve({ request, arrivals });
            ready = true;
          } else if (block.startsWith('event: play')) {
            const date = /"date":"([^"]+)"/.exec(block)?.[1];
            if (date) arrivals.set(date, now);
          }
        }
      });
    });
    request.on('error', reject);
  });
}

async function run(processCount: number) {
  console.log(`\n${processCount} process(es): preparing ${options.viewers} viewers…`);
  const url = await recreateDatabase(options.server, DATABASE);
  const database = connectPostgres(url, 4);
  await applyMigrations(database);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const ids = await pool.query<{ id: string }>(
    `INSERT INTO users (spotify_id, username, name)
     SELECT 'bench-' || n, 'user-' || n, 'User ' || n FROM generate_series(0, $1) AS n
     RETURNING id`,
    [options.viewers],
  );
  const [actor, ...viewers] = ids.rows.map((row) => row.id);
  const friends = viewers.slice(0, options.friends);
  await pool.query(
    `INSERT INTO friendships (user_id, friend_id)
     SELECT $1::uuid, f FROM unnest($2::uuid[]) f UNION ALL SELECT f, $1::uuid FROM unnest($2::uuid[]) f`,
    [actor, friends],
  );
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

  const servers: Awaited<ReturnType<typeof startEarshot>>[] = [];
  for (let i = 0; i < processCount; i++) {
    servers.push(
      await startEarshot({ DATABASE_URL: url, ENCRYPTION_KEY, LIVE_HEARTBEAT_SEC: '20' }),
    );
  }
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const results: Record<string, unknown> = { processes: processCount };
  const streams: Stream[] = [];
  try {
    const rssBefore = servers.map((server) => rssMb(server.pid));
    const opening = performance.now();
    // The friends are the first viewers; streams alternate between the processes.
    const order = [...viewers.keys()];
    for (let start = 0; start < order.length; start += 250) {
      const batch = order.slice(start, start + 250);
      streams.push(
        ...(await Promise.all(
          batch.map((n) => openStream(servers[n % processCount]!.url, cookies[n]!, agent)),
        )),
      );
    }
    const openSeconds = (performance.now() - opening) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rssAfter = servers.map((server) => rssMb(server.pid));
    const perStreamKb =
      ((rssAfter.reduce((a, b) => a + b, 0) - rssBefore.reduce((a, b) => a + b, 0)) * 1024) /
      streams.length;
    console.log(
      `${streams.length} streams open in ${openSeconds.toFixed(1)} s; ~${perStreamKb.toFixed(1)} kB of server memory each`,
    );

    const lastSocket: number[] = [];
    const everySocket: number[] = [];
    let lost = 0;
    const friendStreams = streams.slice(0, options.friends);
    let playedAt = Date.now() - 60_000;
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
      lastSocket.push(Math.max(...delays));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const strangersWithPlays = streams.slice(options.friends).filter((s) => s.arrivals.size > 0);
    Object.assign(results, {
      streams: streams.length,
      open_seconds: round(openSeconds),
      server_rss_mb_before: rssBefore.map(round),
      server_rss_mb_after: rssAfter.map(round),
      memory_kb_per_stream: round(perStreamKb),
      plays: options.plays,
      friends_online: options.friends,
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
      strangers_with_a_play: strangersWithPlays.length,
      refused_then_retried: refusals.splice(0).length,
      load_average: loadAverage(),
    });
    console.log(results);
  } finally {
    for (const stream of streams) stream.request.destroy();
    agent.destroy();
    for (const server of servers) await server.stop();
    await pool.end();
    await dropDatabase(options.server, DATABASE);
  }
  return results;
}

const runs = [];
for (const count of String(options.processes).split(',').map(Number)) runs.push(await run(count));
await writeJson('live.json', runs);
const rows = runs.map((r) => {
  const last = r.last_socket_ms as { p50: number; p99: number; max: number };
  const every = r.every_socket_ms as { p99: number };
  return [
    String(r.processes),
    String(r.streams),
    `${last.p50} / ${last.p99} / ${last.max}`,
    String(every.p99),
    String(r.memory_kb_per_stream),
    String(r.deliveries_missing),
    String(r.strangers_with_a_play),
    String(r.load_average),
  ];
});
const markdown =
  `# Live streams (issue 17)\n\n${await machineDescription()}\n\n` +
  `${options.viewers} open streams, a play by a user with ${options.friends} friends online, ` +
  `${options.plays} plays; delay from the INSERT's commit to the sockets.\n\n` +
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
await writeResult('live.md', markdown);
console.log(`\n${markdown}\n`);
