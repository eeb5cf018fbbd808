import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { CHANGES_CHANNEL, DataChanges, LIVE_CHANNEL } from './changes';

export type Db = NodePgDatabase;
/** A transaction handle; services that can run inside one take `Db | Tx`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** Committed writes as the database announces them (see `changes.ts`). */
  changes: DataChanges;
  close(): Promise<void>;
}

/** The port number in the socket file name node-postgres looks for (`.s.PGSQL.<port>`). */
const SOCKET_PORT = 5432;
const MIGRATIONS_FOLDER = new URL('./migrations', import.meta.url).pathname;
/** Arbitrary constant: serialises migrations when several processes start at once. */
const MIGRATION_LOCK_ID = 725_406_113;

/**
 * SQLSTATEs of a server that is gone, going or not there yet: connection exceptions (class 08),
 * administrator and crash shutdowns and start-up (57P01–57P03), no connection slot left (53300).
 */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;
/**
 * Node's errors for a server that cannot be reached. In a request they come from the database:
 * the Spotify client turns its own into SpotifyErrors.
 */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own errors for a connection lost or never made, which carry no code. */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * Whether an error (or one it wraps: Drizzle wraps the driver's) says the database cannot be
 * reached right now, as opposed to a statement that failed: worth a 503 and another try.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATE.test(code) || UNREACHABLE.has(code))) {
      return true;
    }
    if (LOST_CONNECTION.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

function wrap(pool: pg.Pool, changes: DataChanges, closeBackend: () => Promise<void>): Database {
  // An idle pooled connection that the server ended (a restart, a failover) is dropped from the
  // pool, and the next query opens a new one. Unheard, node-postgres's 'error' event would end
  // the process; queries that were running get the error themselves.
  pool.on('error', () => {});
  return {
    db: drizzle(pool),
    pool,
    changes,
    async close() {
      await pool.end();
      await closeBackend();
    },
  };
}

/** Makes a connection hear the announcements of committed writes, its own ones included. */
async function listen(client: pg.ClientBase, changes: DataChanges): Promise<void> {
  client.on('notification', (message) => {
    if (message.channel === CHANGES_CHANNEL) changes.announce(message.payload ?? '*');
    else if (message.channel === LIVE_CHANNEL && message.payload)
      changes.heardLive(message.payload);
  });
  await client.query(`LISTEN ${CHANGES_CHANNEL}`);
  await client.query(`LISTEN ${LIVE_CHANNEL}`);
}

const RELISTEN_MIN_MS = 500;
const RELISTEN_MAX_MS = 30_000;
/** How often the listening connection proves it is alive, and how long it may take. */
const HEARTBEAT_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * One connection that always listens, so that other processes' writes are heard while no pooled
 * connection is open. When it drops, or stops answering (a connection can die silently behind a
 * NAT or a failover), `changes` is not live until it listens again.
 */
function keepListening(url: string, changes: DataChanges): () => Promise<void> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = RELISTEN_MIN_MS;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    client = next;
    let heartbeat: NodeJS.Timeout | undefined;
    const dropped = () => {
      if (client !== next) return;
      clearInterval(heartbeat);
      client = undefined;
      changes.lost();
      next.end().catch(() => {});
      if (!stopped) {
        retry = setTimeout(() => void connect(), delay);
        delay = Math.min(delay * 2, RELISTEN_MAX_MS);
      }
    };
    next.on('error', dropped);
    next.on('end', dropped);
    try {
      await next.connect();
      await listen(next, changes);
      delay = RELISTEN_MIN_MS;
      changes.resumed();
      heartbeat = setInterval(() => {
        const late = setTimeout(dropped, HEARTBEAT_TIMEOUT_MS);
        next.query('SELECT 1').then(() => clearTimeout(late), dropped);
      }, HEARTBEAT_MS);
      heartbeat.unref();
    } catch {
      dropped();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}

export function connectPostgres(url: string, poolSize = 10): Database {
  const changes = new DataChanges(false);
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    onConnect: (client) => listen(client, changes),
  });
  return wrap(pool, changes, keepListening(url, changes));
}

/**
 * Starts PGlite (PostgreSQL in WASM) on `dataDir`, or in memory when `dataDir` is undefined,
 * and serves it on a unix socket so the rest of Earshot talks to it through node-postgres,
 * exactly as it talks to a real PostgreSQL.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<Database> {
  const socketDir = await mkdtemp(path.join(tmpdir(), 'earshot-pg-'));
  if (dataDir) await mkdir(dataDir, { recursive: true });
  // pg_trgm (searches) and unaccent (search folds accents): loaded here, created by migrations
  // as on PostgreSQL.
  const pglite = await PGlite.create(dataDir ? path.join(dataDir, 'pgdata') : undefined, {
    extensions: { pg_trgm, unaccent },
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
  // Every write comes through this process and its one connection: announcements are never
  // missed, so no separate listener is needed.
  const changes = new DataChanges(true);
  const pool = new pg.Pool({
    host: socketDir,
    port: SOCKET_PORT,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    onConnect: (client) => listen(client, changes),
  });
  return wrap(pool, changes, async () => {
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
