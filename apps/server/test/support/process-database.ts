import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectPostgres, startEmbeddedPostgres, type Database } from '../../src/db/client';
import { throwawayDatabaseName } from './database';

/**
 * The database of Earshot server processes a test starts, kept across their restarts: PGlite in
 * a data folder (as `npm start` runs it) or, in the PostgreSQL pass (TEST_DATABASE_URL), a
 * throwaway database on that server.
 */
export interface ProcessDatabase {
  kind: 'pglite' | 'postgres';
  /** The environment every server process on this database gets. */
  env: Record<string, string>;
  /**
   * Runs `read` against the database. The embedded database lives inside the server process:
   * stop it first.
   */
  inspect<T>(read: (database: Database) => Promise<T>): Promise<T>;
  remove(): Promise<void>;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function processDatabase(): Promise<ProcessDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'earshot-crash-'));
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    return {
      kind: 'pglite',
      env: { DATA_DIR: dataDir },
      async inspect(read) {
        const database = await startEmbeddedPostgres(dataDir);
        try {
          return await read(database);
        } finally {
          await database.close();
        }
      },
      remove: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = throwawayDatabaseName();
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    },
    async inspect(read) {
      const database = connectPostgres(url.toString(), 1);
      try {
        return await read(database);
      } finally {
        await database.close();
      }
    },
    async remove() {
      // The server processes are gone by now; FORCE ends a backend still on its way out.
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
