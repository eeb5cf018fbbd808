import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export type Db = NodePgDatabase;
/** A transaction handle; services that can run inside one take `Db | Tx`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** The port number in the socket file name node-postgres looks for (`.s.PGSQL.<port>`). */
const SOCKET_PORT = 5432;
const MIGRATIONS_FOLDER = new URL('./migrations', import.meta.url).pathname;
/** Arbitrary constant: serialises migrations when several processes start at once. */
const MIGRATION_LOCK_ID = 725_406_113;

function wrap(pool: pg.Pool, closeBackend: () => Promise<void>): Database {
  return {
    db: drizzle(pool),
    pool,
    async close() {
      await pool.end();
      await closeBackend();
    },
  };
}

export function connectPostgres(url: string, poolSize = 10): Database {
  return wrap(new pg.Pool({ connectionString: url, max: poolSize }), async () => {});
}

/**
 * Starts PGlite (PostgreSQL in WASM) on `dataDir`, or in memory when `dataDir` is undefined,
 * and serves it on a unix socket so the rest of Earshot talks to it through node-postgres,
 * exactly as it talks to a real PostgreSQL.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<Database> {
  const socketDir = await mkdtemp(path.join(tmpdir(), 'earshot-pg-'));
  if (dataDir) await mkdir(dataDir, { recursive: true });
  // pg_trgm: the feed's search; loaded here, created by a migration as on PostgreSQL.
  const pglite = await PGlite.create(dataDir ? path.join(dataDir, 'pgdata') : undefined, {
    extensions: { pg_trgm },
  });
  const server = new PGLiteSocketServer({
    db: pglite,
    path: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
    maxConnections: 8,
  });
  await server.start();
  // One connection: the socket's multiplexer queues protocol messages one by one and keeps only
  // explicit transactions together, so two connections' extended-protocol queries (Parse, Bind,
  // Execute) interleave and fail ("portal cannot be run"). PGlite runs one query at a time anyway.
  const pool = new pg.Pool({
    host: socketDir,
    port: SOCKET_PORT,
    user: 'postgres',
    database: 'postgres',
    max: 1,
  });
  return wrap(pool, async () => {
    await server.stop();
    await pglite.close();
    await rm(socketDir, { recursive: true, force: true });
  });
}

export async function applyMigrations(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}
