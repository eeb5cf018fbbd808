import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Db } from '../db/client';
import { spotifyAccounts } from '../db/schema/spotify-accounts';
import type { Metrics } from '../observability/metrics';
import { enrichArtists, enrichTracks } from '../services/enrich-catalog';
import { mirrorFollowedReleases, releasesAwaitMirroring } from '../services/followed-releases';
import {
  leaseImports,
  onImportQueued,
  runHistoryImport,
  type ImportSettings,
} from '../services/import/history-import';
import { SpotifyDisconnectedError, tokenSourceFor } from '../services/spotify-tokens';
import { syncLibrary } from '../services/sync-library';
import { syncRecentPlays } from '../services/sync-recent';
import type { TokenCipher } from '../services/token-cipher';
import type { SpotifyClient } from '../spotify/client';
import { SpotifyRateLimitedError } from '../spotify/errors';
import { catalogAwaitsEnrichment } from '../services/enrich-catalog';
import { LIBRARY_LEASE_SEC, RECENT_LEASE_SEC, leaseDueAccounts } from '../services/sync-schedule';
import { QUEUES, type ImportJob, type QueueName, type UserJob } from './queues';

export interface JobDependencies {
  db: Db;
  pool: pg.Pool;
  cipher: TokenCipher;
  spotify: SpotifyClient;
  metrics: Metrics;
  log: FastifyBaseLogger;
  importSettings: ImportSettings;
}

export interface JobRunnerOptions {
  /** How often due accounts are looked for. */
  dispatchIntervalMs?: number;
  /** Parallel sync jobs in this process. */
  concurrency?: number;
}

export interface JobRunner {
  /** Looks for due work at once (tests, and right after a user connects). */
  dispatch(): Promise<void>;
  stop(): Promise<void>;
}

/** Arbitrary constant: serialises pg-boss's setup when several processes start at once. */
const JOB_SETUP_LOCK_ID = 725_406_114;

/** The release mirror starts a run at most this often. */
const RELEASE_RUN_EVERY_SEC = 60;

/** A failed sync is tried again after this long (the dispatcher retries, not pg-boss). */
const RETRY_AFTER_FAILURE_MS = 2 * 60 * 1000;

/**
 * Runs Earshot's background work on pg-boss queues in the same database: the dispatcher leases
 * due accounts and queues their syncs; workers run them. Any number of processes may run this
 * side by side: leases and `FOR UPDATE SKIP LOCKED` keep them from doing a job twice.
 */
export async function startJobRunner(
  deps: JobDependencies,
  { dispatchIntervalMs = 5_000, concurrency = 4 }: JobRunnerOptions = {},
): Promise<JobRunner> {
  const { db, pool, cipher, spotify, metrics, log, importSettings } = deps;
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
    for (const queue of [QUEUES.syncRecent, QUEUES.syncLibrary, QUEUES.importHistory]) {
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

  async function timed(queue: QueueName, userId: string | null, work: () => Promise<object>) {
    const started = performance.now();
    let outcome = 'done';
    try {
      const summary = await work();
      log.info({ job: queue, userId, ms: Math.round(performance.now() - started), ...summary });
    } catch (error) {
      outcome = 'failed';
      if (error instanceof SpotifyDisconnectedError) {
        outcome = 'disconnected';
        log.info({ job: queue, userId }, 'Spotify disconnected: sync stopped until reconnect');
      } else if (error instanceof SpotifyRateLimitedError) {
        outcome = 'parked';
        log.warn({ job: queue, userId, retryAt: new Date(error.retryAt) }, 'rate limited');
      } else {
        log.error({ job: queue, userId, err: error }, 'job failed');
      }
      throw error;
    } finally {
      metrics.jobs.inc({ queue, outcome });
      metrics.jobSeconds.observe({ queue }, (performance.now() - started) / 1000);
    }
  }

  /** After a failure, when the account should be tried again. */
  function retryTime(error: unknown): Date {
    if (error instanceof SpotifyRateLimitedError) return new Date(error.retryAt);
    return new Date(Date.now() + RETRY_AFTER_FAILURE_MS);
  }

  async function runUserSync(
    queue: QueueName,
    userId: string,
    dueColumn: 'recentDueAt' | 'libraryDueAt',
    sync: typeof syncRecentPlays | typeof syncLibrary,
  ) {
    const auth = tokenSourceFor(db, cipher, spotify, userId);
    try {
      await timed(queue, userId, async () => {
        const result = await sync(db, spotify, auth, userId);
        if ('stored' in result) metrics.playsStored.inc({ source: 'api' }, result.stored);
        if ('possibleGap' in result && result.possibleGap) {
          log.warn({ userId }, 'recently-played window was full: older plays may be missing');
        }
        return result;
      });
    } catch (error) {
      if (error instanceof SpotifyDisconnectedError) return;
      await db
        .update(spotifyAccounts)
        .set({ [dueColumn]: retryTime(error) })
        .where(eq(spotifyAccounts.userId, userId));
    }
  }

  const workOptions = { batchSize: 1, pollingIntervalSeconds: 1 };

  /**
   * A pg-boss worker that looks for its next job as soon as it finishes one. pg-boss waits out
   * its polling interval after every job, found or not, which held each worker to one job a
   * second: a process drained at most `concurrency` polls a second, whatever Spotify's latency.
   * An idle queue is still looked at once a second.
   */
  async function drainingWorker<T extends object>(
    queue: QueueName,
    handler: (job: PgBoss.Job<T>) => Promise<void>,
  ): Promise<string> {
    let id = '';
    id = await boss.work<T>(queue, workOptions, async ([job]) => {
      if (!job) return;
      try {
        await handler(job);
      } finally {
        boss.notifyWorker(id);
      }
    });
    return id;
  }

  for (let i = 0; i < concurrency; i++) {
    await drainingWorker<UserJob>(QUEUES.syncRecent, (job) =>
      runUserSync(QUEUES.syncRecent, job.data.userId, 'recentDueAt', syncRecentPlays),
    );
  }
  await drainingWorker<UserJob>(QUEUES.syncLibrary, (job) =>
    runUserSync(QUEUES.syncLibrary, job.data.userId, 'libraryDueAt', syncLibrary),
  );
  /** Catalogue work is not any user's: it runs on the token of an active account. */
  async function anyActiveAccount() {
    const [account] = await db
      .select({ userId: spotifyAccounts.userId })
      .from(spotifyAccounts)
      .where(eq(spotifyAccounts.status, 'active'))
      .limit(1);
    return account && tokenSourceFor(db, cipher, spotify, account.userId);
  }

  await boss.work(QUEUES.enrichCatalog, workOptions, async () => {
    const auth = await anyActiveAccount();
    if (!auth) return;
    await timed(QUEUES.enrichCatalog, null, async () => {
      const untilNoneWaits = async (enrich: typeof enrichTracks) => {
        let total = 0;
        for (let batch = await enrich(db, spotify, auth); batch > 0;) {
          total += batch;
          batch = await enrich(db, spotify, auth);
        }
        return total;
      };
      // Tracks first: their full objects bring the real artists, which then need theirs.
      const tracks = await untilNoneWaits(enrichTracks);
      const artists = await untilNoneWaits(enrichArtists);
      return { tracks, artists };
    }).catch(() => {});
  });

  // A run reads up to 25 due artists; the dispatcher queues the next while any stays due. A
  // long rate limit stops a run: the gate then refuses the endpoint without calling Spotify
  // until Retry-After, and the artists not reached stay due.
  await boss.work(QUEUES.mirrorReleases, workOptions, async () => {
    const auth = await anyActiveAccount();
    if (!auth) return;
    await timed(QUEUES.mirrorReleases, null, async () => {
      const result = await mirrorFollowedReleases(db, spotify, auth);
      return { ...result };
    }).catch(() => {});
  });

  const importWorker = await boss.work<ImportJob>(
    QUEUES.importHistory,
    workOptions,
    async ([job]) => {
      if (!job) return;
      const { importId } = job.data;
      await timed(QUEUES.importHistory, null, async () => {
        await runHistoryImport(db, importId, importSettings, log);
        return { importId };
      }).catch(() => {});
    },
  );

  async function enqueue(queue: QueueName, userIds: string[]) {
    if (userIds.length === 0) return;
    await boss.insert(
      userIds.map((userId) => ({ name: queue, data: { userId }, singletonKey: userId })),
    );
  }

  async function dispatchImports() {
    const imports = await leaseImports(db);
    if (imports.length === 0) return;
    // The job of a worker that died stays active in pg-boss until it expires (15 minutes), and
    // while it does the import's new job cannot start. The stale heartbeat proved it dead.
    const orphans = await pool.query<{ id: string }>(
      `SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active' AND singleton_key = ANY($2)`,
      [QUEUES.importHistory, imports],
    );
    if (orphans.rows.length > 0) {
      await boss.fail(
        QUEUES.importHistory,
        orphans.rows.map((row) => row.id),
      );
    }
    await boss.insert(
      imports.map((importId) => ({
        name: QUEUES.importHistory,
        data: { importId },
        singletonKey: importId,
      })),
    );
    // Picked up now rather than at the worker's next poll.
    boss.notifyWorker(importWorker);
  }

  async function dispatch() {
    await enqueue(QUEUES.syncRecent, await leaseDueAccounts(db, 'recent_due_at', RECENT_LEASE_SEC));
    await enqueue(
      QUEUES.syncLibrary,
      await leaseDueAccounts(db, 'library_due_at', LIBRARY_LEASE_SEC),
    );
    await dispatchImports();
    if (await catalogAwaitsEnrichment(db)) {
      await boss.send(QUEUES.enrichCatalog, {}, { singletonKey: 'catalog' });
    }
    if (await releasesAwaitMirroring(db)) {
      // At most one run a minute: the releases of thousands of followed artists are read within
      // the day at about a call a second, never as a burst that would starve the play syncs.
      await boss.send(
        QUEUES.mirrorReleases,
        {},
        { singletonKey: 'releases', singletonSeconds: RELEASE_RUN_EVERY_SEC },
      );
    }
    for (const queue of Object.values(QUEUES)) {
      metrics.queueDepth.set({ queue }, await boss.getQueueSize(queue));
    }
  }

  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(dispatch)
      .catch((error: unknown) => log.error({ err: error }, 'dispatch failed'));
  }, dispatchIntervalMs);
  // An upload accepted by this process starts at once, not at the next dispatch.
  const stopListening = onImportQueued(() => {
    if (stopped) return;
    running = running
      .then(dispatchImports)
      .catch((error: unknown) => log.error({ err: error }, 'dispatch failed'));
  });

  return {
    async dispatch() {
      running = running.then(dispatch);
      await running;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stopListening();
      await running.catch(() => {});
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
    },
  };
}
