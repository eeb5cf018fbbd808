import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, type Database } from '../src/db/client';
import { UNUSED_PORTS, freePort } from './support/earshot-process';
import { freshDatabase } from './support/database';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

const failure = (run: () => Promise<unknown>) =>
  run().then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

/** An error as node-postgres gives it for a message of the server, with its SQLSTATE. */
const serverError = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable (a 503, not a 500: docs/product.md §8)', () => {
  it('is true when nothing listens where the database should be', async () => {
    const port = await freePort(...UNUSED_PORTS);
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres' });
    const refused = await failure(() => client.connect());
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });

  it.each([
    ['a shutdown ending the connection', serverError('terminating connection', '57P01')],
    ['a crash of the server', serverError('terminating connection', '57P02')],
    ['a server starting or stopping', serverError('the database system is starting up', '57P03')],
    ['a connection exception', serverError('connection failure', '08006')],
    ['no connection slot left', serverError('too many clients already', '53300')],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    [
      'a pooled client already broken',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
  ])('is true for %s, also wrapped as Drizzle wraps it', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(new DrizzleQueryError('SELECT 1', [], error))).toBe(true);
  });

  it('is false for statements that fail on a database that answers', async () => {
    const missing = await failure(() => database.db.execute(sql`SELECT * FROM no_such_table`));
    expect(missing).toBeInstanceOf(DrizzleQueryError);
    expect(isDatabaseUnavailable(missing)).toBe(false);
    const divisionByZero = await failure(() => database.db.execute(sql`SELECT 1 / 0`));
    expect(isDatabaseUnavailable(divisionByZero)).toBe(false);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'is true for a connection PostgreSQL ended, as a restart ends them',
    async () => {
      const client = new pg.Client({
        connectionString: String(database.pool.options.connectionString),
      });
      client.on('error', () => {});
      await client.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await database.pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      const ended = await failure(() => client.query('SELECT 1'));
      expect(isDatabaseUnavailable(ended)).toBe(true);
      await client.end().catch(() => {});
    },
  );

  it('is false for errors that are not the database’s', () => {
    expect(isDatabaseUnavailable(new Error('Internal server error'))).toBe(false);
    expect(isDatabaseUnavailable(serverError('duplicate key value', '23505'))).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
