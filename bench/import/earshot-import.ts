/**
 * Earshot's import end to end, as a user does it: start `main.ts serve` (jobs in process), sign a
 * user in (user and session written straight into the database), upload the ZIP over HTTP,
 * poll the import status until it is done, sampling the server's memory all along.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import pg from 'pg';
import {
  RssSampler,
  SERVER_MAIN,
  cpuSecondsOf,
  perSecond,
  runTs,
  sleep,
  startTs,
  waitForHttp,
  waitForOutput,
} from './support/processes';
import { freePort } from '../lib/server';

export type DatabaseKind = 'postgres' | 'pglite';

export interface ImportMeasurement {
  database: DatabaseKind;
  /** Upload start to the 202 answer. */
  uploadSec: number;
  /** 202 to the import seen running (dispatcher and queue pick-up). */
  queuedSec: number;
  /** Seen running to seen done. */
  runningSec: number;
  /** Upload start to seen done: what the user waits. */
  totalSec: number;
  /** Status polls every POLL_MS: times are this precise. */
  pollMs: number;
  serverStartRssMb: number;
  peakRssMb: number;
  rssSamples: number;
  files: number;
  rowsRead: number;
  playsAdded: number;
  playsInDatabase: number | null;
  skipped: Record<string, number>;
  errors: string[];
  /** CPU seconds used from the upload to the end: the server process, and PostgreSQL's backends. */
  serverCpuSec: number;
  postgresCpuSec: number | null;
  /** The server's RSS once a second from the upload on (MB). */
  rssSeries: number[];
}

const POLL_MS = 100;
const SESSION_COOKIE = 'earshot_session';

interface ImportProgress {
  state: 'queued' | 'running' | 'done' | 'failed';
  files_done: number;
  files_total: number;
  rows_read: number;
  plays_added: number;
  skipped: Record<string, number>;
  errors: string[];
}

/** Process ids of the PostgreSQL backends serving a database (the server's pool). */
async function postgresBackends(url: string): Promise<number[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return result.rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** Inserts a user and a live session; returns the cookie value (only its SHA-256 is stored). */
async function signIn(query: (text: string, params: unknown[]) => Promise<unknown>) {
  const userId = randomUUID();
  const sessionId = randomBytes(32).toString('base64url');
  await query(`INSERT INTO users (id, spotify_id, username, name) VALUES ($1, $2, $3, $4)`, [
    userId,
    `bench-${userId}`,
    `bench${userId.slice(0, 8)}`,
    'Import Bench',
  ]);
  await query(
    `INSERT INTO sessions (id_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [createHash('sha256').update(sessionId).digest('hex'), userId],
  );
  return sessionId;
}

/**
 * Schema changes to try on PostgreSQL (not Earshot's schema: what-if runs that show where the
 * database's time goes).
 */
export const WHAT_IF: Record<string, string> = {
  'aggregate tables without foreign keys': `
    DO $$ DECLARE c record; BEGIN
      FOR c IN SELECT conrelid::regclass::text AS tab, conname FROM pg_constraint
               WHERE contype = 'f'
                 AND conrelid::regclass::text ~ '^user_((track|album|artist|song)_stats|(track_)?days)$'
      LOOP
        EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', c.tab, c.conname);
      END LOOP;
    END $$;`,
  'no aggregate trigger': `ALTER TABLE plays DISABLE TRIGGER plays_aggregate_insert;`,
  'plays without the foreign key to users': `
    ALTER TABLE plays DROP CONSTRAINT plays_user_id_users_id_fk;`,
  'per-track days indexed without their plays (before migration 0024)': `
    ALTER TABLE user_track_days DROP CONSTRAINT user_track_days_user_id_day_track_id_pk,
      ADD CONSTRAINT user_track_days_user_id_day_track_id_pk PRIMARY KEY (user_id, day, track_id);
    DROP INDEX user_track_days_user_track_idx;
    CREATE INDEX user_track_days_user_track_idx ON user_track_days (user_id, track_id, day);`,
};

export async function measureImport(options: {
  zip: string;
  database: DatabaseKind;
  /** SQL run after the migrations (PostgreSQL only): a what-if variant of the schema. */
  whatIf?: string;
  /** PostgreSQL server URL without a database, e.g. postgres://postgres@127.0.0.1:5432. */
  postgresUrl: string;
  /** The PostgreSQL database (re)created for the run and dropped afterwards. */
  dbName: string;
  /** The port Earshot listens on; 0: any free one. */
  port: number;
  log: (line: string) => void;
}): Promise<ImportMeasurement> {
  const { zip, database, dbName, log } = options;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'earshot-bench-import-'));
  const admin = `${options.postgresUrl}/postgres`;
  const databaseUrl = `${options.postgresUrl}/${dbName}`;
  const port = options.port || (await freePort());
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    IMPORT_DIR: path.join(dataDir, 'imports'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    IMPORT_COOLDOWN_SEC: '0',
    IMPORT_MAX_UPLOAD_BYTES: String(8 * 1024 ** 3),
    RATE_LIMIT_PER_MINUTE: '100000',
    // Info: the line saying the job runner is up (uploads before it wait for a dispatch).
    LOG_LEVEL: 'info',
    JOBS_IN_PROCESS: 'true',
    // A configured (unreachable) Spotify: no sandbox is mounted, no demo world is seeded, and
    // no account exists to sync: the import has the process to itself.
    SPOTIFY_CLIENT_ID: 'earshot-import-bench',
    SPOTIFY_API_URL: 'http://127.0.0.1:9/v1',
    SPOTIFY_ACCOUNTS_URL: 'http://127.0.0.1:9',
    ...(database === 'postgres' && { DATABASE_URL: databaseUrl }),
  };

  let sessionId: string;
  if (database === 'postgres') {
    const client = new pg.Client(admin);
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${dbName}`);
    await client.end();
  }
  await runTs(SERVER_MAIN, ['migrate'], env);
  if (database === 'postgres') {
    const client = new pg.Client(databaseUrl);
    await client.connect();
    if (options.whatIf) await client.query(options.whatIf);
    sessionId = await signIn((text, params) => client.query(text, params));
    await client.end();
  } else {
    const pglite = await PGlite.create(path.join(dataDir, 'pgdata'), {
      extensions: { pg_trgm, unaccent },
    });
    sessionId = await signIn((text, params) => pglite.query(text, params));
    await pglite.close();
  }

  const server = startTs(SERVER_MAIN, ['serve'], env, {
    echo: process.env.BENCH_ECHO === '1',
    nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
  });
  const memory = new RssSampler(server.pid);
  const base = `http://127.0.0.1:${port}`;
  const headers = { cookie: `${SESSION_COOKIE}=${sessionId}` };
  try {
    await waitForHttp(`${base}/api/status`, server);
    await waitForOutput(server, /jobs in this process/);
    const serverStartRssMb = memory.stop().peakMb;
    const sampler = new RssSampler(server.pid);

    const backends = database === 'postgres' ? await postgresBackends(databaseUrl) : [];
    const cpuBefore = cpuSecondsOf(server.pid);
    const backendCpuBefore = new Map(backends.map((pid) => [pid, cpuSecondsOf(pid)]));
    const form = new FormData();
    form.append('file', await openAsBlob(zip), 'my_spotify_data.zip');
    const started = performance.now();
    const upload = await fetch(`${base}/api/spotify/import`, {
      method: 'POST',
      headers,
      body: form,
    });
    if (upload.status !== 202) {
      throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
    }
    const uploaded = performance.now();
    log(`    uploaded in ${((uploaded - started) / 1000).toFixed(2)} s`);

    let running: number | undefined;
    let progress: ImportProgress | undefined;
    let lastLog = uploaded;
    for (;;) {
      const response = await fetch(`${base}/api/spotify/import`, { headers });
      const status = (await response.json()) as { current: ImportProgress | null };
      progress = status.current ?? undefined;
      const now = performance.now();
      if (progress?.state !== 'queued' && running === undefined) running = now;
      if (progress?.state === 'done' || progress?.state === 'failed') break;
      if (server.process.exitCode !== null) throw new Error(`server died:\n${server.output()}`);
      if (now - lastLog > 5000 && progress) {
        lastLog = now;
        log(
          `    ${progress.state}: ${progress.files_done}/${progress.files_total} files, ` +
            `${progress.rows_read} rows read, ${progress.plays_added} plays added`,
        );
      }
      await sleep(POLL_MS);
    }
    const done = performance.now();
    const peak = sampler.stop();
    const serverCpuSec = cpuSecondsOf(server.pid) - cpuBefore;
    let postgresCpuSec: number | null = null;
    if (database === 'postgres') {
      postgresCpuSec = 0;
      for (const pid of await postgresBackends(databaseUrl)) {
        postgresCpuSec += cpuSecondsOf(pid) - (backendCpuBefore.get(pid) ?? 0);
      }
    }
    if (progress.state !== 'done') {
      throw new Error(`import ${progress.state}: ${progress.errors.join('; ')}`);
    }

    let playsInDatabase: number | null = null;
    if (database === 'postgres') {
      const client = new pg.Client(databaseUrl);
      await client.connect();
      const result = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM plays');
      playsInDatabase = result.rows[0]?.n ?? null;
      await client.end();
    }
    return {
      database,
      uploadSec: (uploaded - started) / 1000,
      queuedSec: ((running ?? done) - uploaded) / 1000,
      runningSec: (done - (running ?? done)) / 1000,
      totalSec: (done - started) / 1000,
      pollMs: POLL_MS,
      serverStartRssMb,
      peakRssMb: Math.max(serverStartRssMb, peak.peakMb),
      rssSamples: peak.samples,
      files: progress.files_total,
      rowsRead: progress.rows_read,
      playsAdded: progress.plays_added,
      playsInDatabase,
      skipped: progress.skipped,
      errors: progress.errors,
      serverCpuSec,
      postgresCpuSec,
      rssSeries: perSecond(peak.series),
    };
  } finally {
    await server.stop();
    if (database === 'postgres') {
      const client = new pg.Client(admin);
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await client.end();
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}
