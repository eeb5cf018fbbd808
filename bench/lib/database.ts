import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import {
  applyMigrations,
  connectPostgres,
  startEmbeddedPostgres,
  type Database,
} from '../../apps/server/src/db/client';
import type { CatalogueSummary } from './catalogue';
import { databaseExists, dropDatabase, recreateDatabase } from './postgres';
import { secondsSince } from './steps';

export type Backend = 'postgres' | 'pglite';

/** The `--backend` option, checked. */
export function readBackend(value: string): Backend {
  if (value !== 'postgres' && value !== 'pglite') throw new Error('--backend postgres|pglite');
  return value;
}

/**
 * `readOptions` defaults of a benchmark on generated data: where its database lives, and whether
 * it is reused and kept. Each benchmark has a database name and seed of its own.
 */
export const generatedDataOptions = ({ database, seed }: { database: string; seed: number }) => ({
  scale: 1,
  backend: 'postgres',
  /** Any URL of the PostgreSQL server to use; the database `--database` is (re)created on it. */
  serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database,
  dataDir: '',
  /** Reuse the database of a previous run with the same scale and seed (skips generation). */
  reuse: false,
  /** Keep the database afterwards (else it is dropped). */
  keep: false,
  seed,
});

/** Where a benchmark's database lives, and how the server under test reaches it. */
export interface BenchDatabase {
  backend: Backend;
  /** Open in this process (for generation, setup and EXPLAIN). */
  database: Database | undefined;
  /** Environment for `main.ts serve`: DATABASE_URL, or the embedded database's DATA_DIR. */
  serverEnv: Record<string, string>;
  /** Whatever the generator recorded about the data (null until it was generated). */
  meta: Record<string, unknown> | null;
  /** Reopens the database in this process (PGlite allows one process at a time). */
  open(): Promise<Database>;
  /** Closes it here, so that the server can open it (PGlite). */
  release(): Promise<void>;
  saveMeta(meta: Record<string, unknown>): Promise<void>;
  /** Deletes the database. */
  destroy(): Promise<void>;
}

/** A fixed key: the benchmark stores no real tokens. */
const ENCRYPTION_KEY = '0'.repeat(64);

export interface DatabaseChoice {
  backend: Backend;
  /** PostgreSQL: any URL on the server to use (its database name is replaced by `name`). */
  serverUrl: string;
  /** PostgreSQL database name, or the PGlite folder's name under the temp directory. */
  name: string;
  /** PGlite folder; a temp folder named after `name` when empty. */
  dataDir: string;
  /** Keep the existing data when its meta matches `expect` (skips generation). */
  reuse: boolean;
  /** What the data must have been generated with to be reused (scale, seed, …). */
  expect: Record<string, unknown>;
  poolSize: number;
}

const matches = (meta: Record<string, unknown> | null, expect: Record<string, unknown>) =>
  meta !== null && Object.entries(expect).every(([key, value]) => meta[key] === value);

/**
 * Opens the benchmark database: reused when asked and generated with the same parameters,
 * else created empty and migrated with Earshot's migrations. `meta` is null when it must be
 * generated.
 */
export async function openBenchDatabase(choice: DatabaseChoice): Promise<BenchDatabase> {
  return choice.backend === 'postgres' ? openPostgres(choice) : openPglite(choice);
}

async function openPostgres(choice: DatabaseChoice): Promise<BenchDatabase> {
  const url = new URL(choice.serverUrl);
  url.pathname = `/${choice.name}`;
  const readMeta = async (database: Database) => {
    const result = await database.pool.query<{ meta: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS meta FROM pg_database WHERE datname = $1`,
      [choice.name],
    );
    const text = result.rows[0]?.meta;
    return text ? (JSON.parse(text) as Record<string, unknown>) : null;
  };
  let database: Database | undefined;
  let meta: Record<string, unknown> | null = null;
  if (choice.reuse && (await databaseExists(choice.serverUrl, choice.name))) {
    database = connectPostgres(url.toString(), choice.poolSize);
    meta = await readMeta(database);
    if (!matches(meta, choice.expect)) {
      await database.close();
      database = undefined;
      meta = null;
    }
  }
  if (!database) {
    await recreateDatabase(choice.serverUrl, choice.name);
    database = connectPostgres(url.toString(), choice.poolSize);
    await applyMigrations(database);
  }
  const bench: BenchDatabase = {
    backend: 'postgres',
    database,
    serverEnv: { DATABASE_URL: url.toString(), ENCRYPTION_KEY },
    meta,
    async open() {
      bench.database ??= connectPostgres(url.toString(), choice.poolSize);
      return bench.database;
    },
    async release() {
      await bench.database?.close();
      bench.database = undefined;
    },
    async saveMeta(value) {
      const db = await bench.open();
      const literal = JSON.stringify(value).replace(/'/g, "''");
      await db.pool.query(`COMMENT ON DATABASE "${choice.name}" IS '${literal}'`);
      bench.meta = value;
    },
    async destroy() {
      await bench.release();
      await dropDatabase(choice.serverUrl, choice.name);
    },
  };
  return bench;
}

async function openPglite(choice: DatabaseChoice): Promise<BenchDatabase> {
  const dataDir = choice.dataDir || path.join(tmpdir(), choice.name);
  const metaFile = path.join(dataDir, 'bench-meta.json');
  const readMeta = async () => {
    try {
      return JSON.parse(await readFile(metaFile, 'utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
  };
  let meta = choice.reuse ? await readMeta() : null;
  if (!matches(meta, choice.expect)) {
    meta = null;
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir, { recursive: true });
  }
  const database = await startEmbeddedPostgres(dataDir);
  if (!meta) await applyMigrations(database);
  const bench: BenchDatabase = {
    backend: 'pglite',
    database,
    // The server opens the same folder (it keeps the database in DATA_DIR/pgdata).
    serverEnv: { DATA_DIR: dataDir },
    meta,
    async open() {
      bench.database ??= await startEmbeddedPostgres(dataDir);
      return bench.database;
    },
    async release() {
      await bench.database?.close();
      bench.database = undefined;
    },
    async saveMeta(value) {
      await writeFile(metaFile, JSON.stringify(value));
      bench.meta = value;
    },
    async destroy() {
      await bench.release();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return bench;
}

/** What a world generator is given: its seed, and how hard it may load the database. */
export interface GenerationSettings {
  seed: number;
  concurrency: number;
  workMem?: string;
  maintenanceWorkMem?: string;
}

/** What every generated world records, for the report and for reuse. */
export interface GeneratedWorld {
  catalogue: CatalogueSummary;
  /** Exact row counts after generation. */
  rows: Record<string, number>;
  /** Seconds per step, and in total. */
  steps: Record<string, number>;
  seconds: number;
  generatedAt: string;
}

/**
 * Opens a benchmark's database and generates its world, or reuses the world a previous run made
 * with the same scale and seed; runs `action` on it, then drops the database unless `keep`.
 * `name` names the PGlite folder (`earshot-bench-<name>-x<scale>`).
 */
export async function withGeneratedWorld<World extends GeneratedWorld, T>(
  name: string,
  options: ReturnType<typeof generatedDataOptions> & { backend: Backend },
  generate: (pool: pg.Pool, settings: GenerationSettings) => Promise<World>,
  action: (bench: BenchDatabase, world: World) => Promise<T>,
): Promise<T> {
  const { backend, scale, seed } = options;
  const bench = await openBenchDatabase({
    backend,
    serverUrl: options.serverUrl,
    name: backend === 'postgres' ? options.database : `earshot-bench-${name}-x${scale}`,
    dataDir: options.dataDir,
    reuse: options.reuse,
    expect: { scale, seed },
    poolSize: 4,
  });
  try {
    let world = bench.meta?.world as World | undefined;
    if (!world) {
      console.log('Generating:');
      const { pool } = await bench.open();
      const generationStart = performance.now();
      world = await generate(pool, {
        seed,
        concurrency: backend === 'postgres' ? 2 : 1,
        ...(backend === 'pglite' ? { workMem: '256MB', maintenanceWorkMem: '512MB' } : {}),
      });
      world.seconds = secondsSince(generationStart);
      console.log(`Generated in ${world.seconds} s:`, world.rows);
      await bench.saveMeta({ scale, seed, world });
    } else {
      console.log(`Reusing the data generated ${world.generatedAt} (in ${world.seconds} s).`);
    }
    return await action(bench, world);
  } finally {
    if (!options.keep) await bench.destroy();
    else await bench.release();
  }
}
