import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { ProcessGroup } from './cpu';
import type { BenchDatabase } from './database';
import type { LoadOptions } from './load';
import { databaseUrl } from './postgres';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url));

interface EarshotServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('No port');
  return address.port;
}

/**
 * Starts Earshot (`main.ts serve`) in its own process, as deployed: its own event loop, so the
 * load generator does not share it. `env` adds to a minimal environment: DATABASE_URL (else
 * the embedded database in DATA_DIR), ENCRYPTION_KEY, … Rate limiting is lifted, jobs are off
 * and a dummy Spotify client id keeps the sandbox unmounted. Resolves once `/api/status`
 * answers.
 */
export async function startEarshot(
  env: Record<string, string>,
  { timeoutMs = 180_000, port: fixedPort }: { timeoutMs?: number; port?: number } = {},
): Promise<EarshotServer> {
  // BENCH_PORT: a port of one's own on a machine others share.
  const port = fixedPort ?? (Number(process.env.BENCH_PORT) || (await freePort()));
  // BENCH_NODE_ARGS (e.g. --trace-gc) goes to the server's node; BENCH_ECHO=1 prints its output.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', MAIN, 'serve'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      JOBS_IN_PROCESS: 'false',
      LOG_LEVEL: 'warn',
      SPOTIFY_CLIENT_ID: 'earshot-bench',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
    if (process.env.BENCH_ECHO === '1') process.stdout.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Earshot exited:\n${output}`);
    try {
      const response = await fetch(`${url}/api/status`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Earshot did not start in ${timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The PostgreSQL backends serving `database` (the server's pool), found through pg_stat_activity. */
async function postgresBackends(serverUrl: string, database: string) {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  return {
    async pids(): Promise<number[]> {
      const result = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      return result.rows.map((row) => row.pid);
    },
    close: () => client.end(),
  };
}

/**
 * The processes a benchmark accounts CPU time to: the server, its PostgreSQL backends (none for
 * the embedded database, which runs inside the server), and this process (the load generator).
 */
function benchProcesses(
  serverPid: number,
  backends: { pids(): Promise<number[]> } | undefined,
): ProcessGroup[] {
  return [
    { label: 'server', pids: async () => [serverPid] },
    ...(backends ? [{ label: 'postgres', pids: () => backends.pids() }] : []),
    { label: 'autocannon', pids: async () => [process.pid] },
  ];
}

/**
 * Starts Earshot on the benchmark's database, runs `action` with its URL and the load to put on
 * it (CPU time counted to the server, its PostgreSQL backends and the load generator), and stops
 * it. `env` adds to the server's environment; `port` is any free one unless given.
 */
export async function withEarshot<T>(
  bench: BenchDatabase,
  settings: {
    serverUrl: string;
    database: string;
    connections: number;
    duration: number;
    warmup: number;
    port?: number;
  },
  env: Record<string, string>,
  action: (url: string, load: LoadOptions) => Promise<T>,
): Promise<T> {
  console.log('Starting Earshot…');
  const server = await startEarshot(
    { ...bench.serverEnv, ...env },
    settings.port !== undefined ? { port: settings.port } : {},
  );
  const backends =
    bench.backend === 'postgres'
      ? await postgresBackends(settings.serverUrl, settings.database)
      : undefined;
  try {
    return await action(server.url, {
      connections: settings.connections,
      duration: settings.duration,
      warmup: settings.warmup,
      processes: benchProcesses(server.pid, backends),
    });
  } finally {
    await server.stop();
    await backends?.close();
  }
}
