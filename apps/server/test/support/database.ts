import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import {
  applyMigrations,
  connectPostgres,
  startEmbeddedPostgres,
  type Database,
} from '../../src/db/client';

/**
 * The name of a throwaway database on TEST_DATABASE_URL's server. TEST_DATABASE_PREFIX (default
 * `earshot_test`) keeps them apart on a server others use too.
 */
export function throwawayDatabaseName(): string {
  const prefix = process.env.TEST_DATABASE_PREFIX || 'earshot_test';
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

const MIGRATIONS = new URL('../../src/db/migrations/', import.meta.url).pathname;

/**
 * Applies the migrations up to the one tagged `through` (its name in the journal), from a copy of
 * the folder whose journal ends there; `applyMigrations` applies the rest later.
 */
async function migrateThrough(database: Database, through: string): Promise<void> {
  const folder = await mkdtemp(path.join(tmpdir(), 'earshot-migrations-'));
  const client = await database.pool.connect();
  try {
    await cp(MIGRATIONS, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
      entries: { tag: string }[];
    };
    const last = journal.entries.findIndex((entry) => entry.tag === through);
    if (last < 0) throw new Error(`No migration tagged ${through}`);
    journal.entries = journal.entries.slice(0, last + 1);
    await writeFile(journalFile, JSON.stringify(journal));
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    client.release();
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A migrated, empty database for one test file: in-memory PGlite, or, when TEST_DATABASE_URL is
 * set (the PostgreSQL pass), a throwaway database created on that server and dropped after.
 * With `through`, migrated only up to that migration (to test the next one's backfill).
 */
export async function freshDatabase({ through }: { through?: string } = {}): Promise<Database> {
  const migrateIt = (database: Database) =>
    through ? migrateThrough(database, through) : applyMigrations(database);
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres(undefined);
    await migrateIt(embedded);
    return embedded;
  }
  const name = throwawayDatabaseName();
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = connectPostgres(url.toString(), 4);
  await migrateIt(database);
  return {
    ...database,
    async close() {
      await database.close();
      // Not WITH (FORCE): that kills backends whose clients are still closing, and they report
      // it as an error. Connections just ended go away within moments.
      for (let attempt = 1; ; attempt++) {
        try {
          await admin(`DROP DATABASE ${name}`);
          return;
        } catch (error) {
          const beingUsed = (error as { code?: string }).code === '55006';
          if (!beingUsed || attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    },
  };
}
