import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Db } from '../db/client';
import type { Metrics } from '../observability/metrics';
import { catalogAwaitsEnrichment } from '../services/enrich-catalog';
import { leaseExports, removeExpiredExports } from '../services/export/data-export';
import { releaseRunDue } from '../services/followed-releases';
import { leaseImports } from '../services/import/history-import';
import {
  LIBRARY_LEASE_SEC,
  RECENT_LEASE_SEC,
  leaseDueAccounts,
  type DueColumn,
} from '../services/spotify-accounts';
import type { Workers } from './handlers';
import { QUEUES, type QueueName } from './queues';

/** At most one release mirror run is queued per slot this long. */
const RELEASE_QUEUE_SLOT_SEC = 10;

export interface Dispatcher {
  /** Queues all due work: syncs, imports, exports, catalogue work; drops expired exports. */
  dispatch(): Promise<void>;
  /** Queues waiting imports only (right after an upload). */
  dispatchImports(): Promise<void>;
  /** Queues waiting exports only (right after one is asked for). */
  dispatchExports(): Promise<void>;
}

/**
 * The dispatcher leases due work in the database and queues one job per lease; the workers of any
 * process take them. Leases (and `FOR UPDATE SKIP LOCKED`) keep two processes from queueing the
 * same work.
 */
export function createDispatcher(
  boss: PgBoss,
  { db, pool, metrics }: { db: Db; pool: pg.Pool; metrics: Metrics },
  workers: Workers,
): Dispatcher {
  /**
   * The job of a worker that died stays active in pg-boss until it expires (15 minutes), and
   * while it does, the next job of its key cannot start: taking it would break the stately
   * queue's one-active-job-per-key index, pg-boss swallows that and answers no job, and as the
   * oldest waiting job it is tried first on every fetch: the queue stalls for every user. Work
   * is leased to `keys` only once its heartbeat stopped (an import's, an export's, a running
   * sync's lease), which proves their active jobs dead: they are failed before new ones are queued.
   */
  async function failOrphans(queue: QueueName, keys: string[]) {
    if (keys.length === 0) return;
    const orphans = await pool.query<{ id: string }>(
      `SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active' AND singleton_key = ANY($2)`,
      [queue, keys],
    );
    if (orphans.rows.length > 0) {
      await boss.fail(
        queue,
        orphans.rows.map((row) => row.id),
      );
    }
  }

  /** Queues leased work (imports, exports) by its id, one job per id, for `worker` to take now. */
  async function queueLeased(
    queue: QueueName,
    worker: string,
    ids: string[],
    data: (id: string) => object,
  ) {
    if (ids.length === 0) return;
    await failOrphans(queue, ids);
    await boss.insert(ids.map((id) => ({ name: queue, data: data(id), singletonKey: id })));
    // Picked up now rather than at the worker's next poll.
    boss.notifyWorker(worker);
  }

  async function dispatchSyncs(queue: QueueName, column: DueColumn, leaseSec: number) {
    const userIds = await leaseDueAccounts(db, column, leaseSec);
    if (userIds.length === 0) return;
    await failOrphans(queue, userIds);
    await boss.insert(
      userIds.map((userId) => ({ name: queue, data: { userId }, singletonKey: userId })),
    );
  }

  const dispatchImports = async () =>
    queueLeased(
      QUEUES.importHistory,
      workers.importHistory,
      await leaseImports(db),
      (importId) => ({
        importId,
      }),
    );
  const dispatchExports = async () =>
    queueLeased(QUEUES.exportData, workers.exportData, await leaseExports(db), (exportId) => ({
      exportId,
    }));

  async function dispatch() {
    await dispatchSyncs(QUEUES.syncRecent, 'recent_due_at', RECENT_LEASE_SEC);
    await dispatchSyncs(QUEUES.syncLibrary, 'library_due_at', LIBRARY_LEASE_SEC);
    await dispatchImports();
    await dispatchExports();
    await removeExpiredExports(db);
    if (await catalogAwaitsEnrichment(db)) {
      await boss.send(QUEUES.enrichCatalog, {}, { singletonKey: 'catalog' });
    }
    if (await releaseRunDue(db)) {
      // At most one run a minute (the worker checks again as the run starts): the releases of
      // thousands of followed artists are read within the day at about a call a second, never as
      // a burst that would starve the play syncs. The slot keeps the dispatches made while a run
      // waits in the queue from piling more up behind it.
      await boss.send(
        QUEUES.mirrorReleases,
        {},
        { singletonKey: 'releases', singletonSeconds: RELEASE_QUEUE_SLOT_SEC },
      );
    }
    for (const queue of Object.values(QUEUES)) {
      metrics.queueDepth.set({ queue }, await boss.getQueueSize(queue));
    }
  }

  return { dispatch, dispatchImports, dispatchExports };
}
