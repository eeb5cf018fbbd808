import { randomUUID } from 'node:crypto';
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

/**
 * A migrated, empty database for one test file: in-memory PGlite, or, when TEST_DATABASE_URL is
 * set (the PostgreSQL pass), a throwaway database created on that server and dropped after.
 */
export async function freshDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres(undefined);
    await applyMigrations(embedded);
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
  await applyMigrations(database);
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
