import { onExportQueued } from '../services/export/data-export';
import { onImportQueued } from '../services/import/history-import';
import { createDispatcher } from './dispatcher';
import { registerHandlers, type JobDependencies } from './handlers';
import { startQueues } from './queue-setup';

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

/**
 * Runs Earshot's background work on pg-boss queues in the same database: the dispatcher leases
 * due work and queues it (every `dispatchIntervalMs`, and at once after an upload or an export
 * request in this process); workers run it. Any number of processes may run this side by side.
 */
export async function startJobRunner(
  deps: JobDependencies,
  { dispatchIntervalMs = 5_000, concurrency = 4 }: JobRunnerOptions = {},
): Promise<JobRunner> {
  const { log } = deps;
  const boss = await startQueues(deps.pool, log);
  const workers = await registerHandlers(boss, deps, concurrency);
  const dispatcher = createDispatcher(boss, deps, workers);

  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(dispatcher.dispatch)
      .catch((error: unknown) => log.error({ err: error }, 'dispatch failed'));
  }, dispatchIntervalMs);
  const soon = (work: () => Promise<void>) => () => {
    if (stopped) return;
    running = running
      .then(work)
      .catch((error: unknown) => log.error({ err: error }, 'dispatch failed'));
  };
  const stopListening = [
    onImportQueued(soon(dispatcher.dispatchImports)),
    onExportQueued(soon(dispatcher.dispatchExports)),
  ];

  return {
    async dispatch() {
      running = running.then(dispatcher.dispatch);
      await running;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      for (const stop of stopListening) stop();
      await running.catch(() => {});
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
    },
  };
}
