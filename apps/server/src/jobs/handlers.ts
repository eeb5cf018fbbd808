import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Db } from '../db/client';
import type { Metrics } from '../observability/metrics';
import { enrichArtists, enrichTracks } from '../services/enrich-catalog';
import { runDataExport } from '../services/export/data-export';
import { mirrorFollowedReleases, releaseRunDue } from '../services/followed-releases';
import { runHistoryImport, type ImportSettings } from '../services/import/history-import';
import {
  SpotifyDisconnectedError,
  anyActiveTokenSource,
  tokenSourceFor,
} from '../services/spotify-tokens';
import { syncLibrary } from '../services/sync-library';
import { syncRecentPlays } from '../services/sync-recent';
import {
  SYNC_HEARTBEAT_SEC,
  renewRunningLease,
  retrySyncAt,
  startRunningLease,
  type DueColumn,
} from '../services/spotify-accounts';
import type { TokenCipher } from '../services/token-cipher';
import type { ErrorReporter } from '../observability/error-reporting';
import type { SpotifyClient } from '../spotify/client';
import { SpotifyRateLimitedError } from '../spotify/errors';
import { QUEUES, type ExportJob, type ImportJob, type QueueName, type UserJob } from './queues';

export interface JobDependencies {
  db: Db;
  pool: pg.Pool;
  cipher: TokenCipher;
  spotify: SpotifyClient;
  metrics: Metrics;
  log: FastifyBaseLogger;
  importSettings: ImportSettings;
  /** Where a job's unexpected failure goes besides the log (Sentry, with SENTRY_DSN). */
  errorReporter?: ErrorReporter | null;
}

/** The workers the dispatcher wakes at once when it queues their work. */
export interface Workers {
  importHistory: string;
  exportData: string;
}

/** A failed sync is tried again after this long (the dispatcher retries, not pg-boss). */
const RETRY_AFTER_FAILURE_MS = 2 * 60 * 1000;

const workOptions = { batchSize: 1, pollingIntervalSeconds: 1 };

/** After a failure, when the account should be tried again. */
function retryTime(error: unknown): Date {
  if (error instanceof SpotifyRateLimitedError) return new Date(error.retryAt);
  return new Date(Date.now() + RETRY_AFTER_FAILURE_MS);
}

/**
 * Registers this process's workers on every queue: `concurrency` play syncs, one library sync,
 * the catalogue's enrichment and release mirror, imports and exports.
 */
export async function registerHandlers(
  boss: PgBoss,
  deps: JobDependencies,
  concurrency: number,
): Promise<Workers> {
  const { db, cipher, spotify, metrics, log, importSettings, errorReporter } = deps;

  /** Runs a job's work, logging its summary or why it failed, and counting its outcome. */
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
        errorReporter?.report(error, { method: 'JOB', route: queue });
      }
      throw error;
    } finally {
      metrics.jobs.inc({ queue, outcome });
      metrics.jobSeconds.observe({ queue }, (performance.now() - started) / 1000);
    }
  }

  /**
   * Keeps a running sync's account on its short lease until `release`: if this process dies,
   * the account is due again within seconds and the next dispatch (any process) resumes it.
   */
  async function holdRunningLease(userId: string, column: DueColumn) {
    let lease = await startRunningLease(db, userId, column);
    if (!lease) return () => {};
    const heartbeat = setInterval(() => {
      renewRunningLease(db, userId, column, lease!).then(
        (renewed) => {
          // None: the sync has set its next due time itself.
          if (renewed) lease = renewed;
          else clearInterval(heartbeat);
        },
        (error: unknown) => log.warn({ userId, err: error }, 'sync lease renewal failed'),
      );
    }, SYNC_HEARTBEAT_SEC * 1000);
    return () => clearInterval(heartbeat);
  }

  async function runUserSync(
    queue: QueueName,
    userId: string,
    dueColumn: DueColumn,
    sync: typeof syncRecentPlays | typeof syncLibrary,
  ) {
    const auth = tokenSourceFor(db, cipher, spotify, userId);
    let release: (() => void) | undefined;
    try {
      release = await holdRunningLease(userId, dueColumn);
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
      await retrySyncAt(db, userId, dueColumn, retryTime(error));
    } finally {
      release?.();
    }
  }

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
      runUserSync(QUEUES.syncRecent, job.data.userId, 'recent_due_at', syncRecentPlays),
    );
  }
  await drainingWorker<UserJob>(QUEUES.syncLibrary, (job) =>
    runUserSync(QUEUES.syncLibrary, job.data.userId, 'library_due_at', syncLibrary),
  );

  await boss.work(QUEUES.enrichCatalog, workOptions, async () => {
    const auth = await anyActiveTokenSource(db, cipher, spotify);
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

  // A run reads up to 25 due artists; the dispatcher queues the next while any stays due, and a
  // run queued within a minute of the last one's reads does nothing. A long rate limit stops a
  // run: the gate then refuses the endpoint without calling Spotify until Retry-After, and the
  // artists not reached stay due.
  await boss.work(QUEUES.mirrorReleases, workOptions, async () => {
    if (!(await releaseRunDue(db))) return;
    const auth = await anyActiveTokenSource(db, cipher, spotify);
    if (!auth) return;
    await timed(QUEUES.mirrorReleases, null, async () => {
      const result = await mirrorFollowedReleases(db, spotify, auth);
      return { ...result };
    }).catch(() => {});
  });

  const importHistory = await boss.work<ImportJob>(
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

  const exportData = await boss.work<ExportJob>(QUEUES.exportData, workOptions, async ([job]) => {
    if (!job) return;
    const { exportId } = job.data;
    await timed(QUEUES.exportData, null, async () => {
      await runDataExport(db, exportId, log);
      return { exportId };
    }).catch(() => {});
  });

  return { importHistory, exportData };
}
