import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { QUEUES } from './queues';

/** Arbitrary constant: serialises pg-boss's setup when several processes start at once. */
const JOB_SETUP_LOCK_ID = 725_406_114;

/**
 * Starts pg-boss on Earshot's database and makes sure its queues exist: per-user and per-id work
 * one job at a time per key (stately), catalogue-wide work one job at all (singleton).
 */
export async function startQueues(pool: pg.Pool, log: FastifyBaseLogger): Promise<PgBoss> {
  // pg-boss sets up its schema and queues with DDL that fails (duplicate schema, deadlocks) when
  // two processes do it at once, e.g. workers starting together on a new database. The setup
  // runs on one connection holding an advisory lock, so processes take turns; pg-boss's own
  // work goes to the pool afterwards.
  let setup: pg.PoolClient | undefined = await pool.connect();
  const boss = new PgBoss({
    db: { executeSql: (text, values) => (setup ?? pool).query(text, values) },
    schedule: false,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  try {
    await setup.query('SELECT pg_advisory_lock($1)', [JOB_SETUP_LOCK_ID]);
    await boss.start();
    for (const queue of [
      QUEUES.syncRecent,
      QUEUES.syncLibrary,
      QUEUES.importHistory,
      QUEUES.exportData,
    ]) {
      await boss.createQueue(queue, { name: queue, policy: 'stately', retryLimit: 0 });
    }
    for (const queue of [QUEUES.enrichCatalog, QUEUES.mirrorReleases]) {
      await boss.createQueue(queue, { name: queue, policy: 'singleton', retryLimit: 0 });
    }
  } finally {
    const client = setup;
    setup = undefined;
    await client.query('SELECT pg_advisory_unlock($1)', [JOB_SETUP_LOCK_ID]).catch(() => {});
    client.release();
  }
  return boss;
}
