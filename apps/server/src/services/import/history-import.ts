import { rm } from 'node:fs/promises';
import type { ImportProgress, ImportStatus } from '@earshot/contract/import';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { leaseWaitingRows } from '../../db/lease';
import { spotifyAccount } from '../spotify-accounts';
import { historyImports, type HistoryImportRow } from '../../db/schema/imports';
import { HttpError } from '../../errors';
import { inspectArchive, readEntryArray, ImportRejected, type ArchiveLimits } from './archive';
import { historyFileKind, readHistoryRow, type SkipReason } from './rows';
import { ImportCatalogue, PlayColumns, storeImportedPlays } from './store';

export interface ImportSettings {
  /** Where uploads wait for their import (shared storage when workers run elsewhere). */
  dir: string;
  maxUploadBytes: number;
  /** Wait after a finished import before the next may start. */
  cooldownSec: number;
  limits: ArchiveLimits;
}

/** A running import renews its heartbeat this often, whatever the size of the file it reads. */
export const IMPORT_HEARTBEAT_SEC = 5;
/** A heartbeat older than this means the import's worker died: another one resumes it. */
export const IMPORT_HEARTBEAT_STALE_SEC = 20;

const queuedListeners = new Set<() => void>();

/**
 * Calls `listener` whenever an upload is queued in this process, so a job runner here starts it
 * at once rather than at its next dispatch. Returns the unsubscribe function.
 */
export function onImportQueued(listener: () => void): () => void {
  queuedListeners.add(listener);
  return () => queuedListeners.delete(listener);
}

export function toProgress(row: HistoryImportRow): ImportProgress {
  return {
    id: row.id,
    state: row.state,
    files_done: row.filesDone,
    files_total: row.files.length,
    rows_read: row.rowsRead,
    plays_added: row.playsAdded,
    skipped: row.skipped,
    errors: row.errors,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    interrupted:
      row.state === 'running' &&
      Date.now() - row.heartbeatAt.getTime() > IMPORT_HEARTBEAT_STALE_SEC * 1000,
  };
}

export async function importStatus(
  db: Db,
  userId: string,
  settings: ImportSettings,
): Promise<ImportStatus> {
  const [latest] = await db
    .select()
    .from(historyImports)
    .where(eq(historyImports.userId, userId))
    .orderBy(desc(historyImports.createdAt))
    .limit(1);
  const [done] = await db
    .select({
      lastFinished: sql<Date | null>`max(${historyImports.finishedAt})`,
      total: sql<number>`coalesce(sum(${historyImports.playsAdded}), 0)::int`,
    })
    .from(historyImports)
    .where(and(eq(historyImports.userId, userId), eq(historyImports.state, 'done')));
  const gapAt = (await spotifyAccount(db, userId))?.recentGapAt ?? null;
  const lastFinished = done?.lastFinished ? new Date(done.lastFinished) : null;
  const waitMs = lastFinished
    ? lastFinished.getTime() + settings.cooldownSec * 1000 - Date.now()
    : 0;
  return {
    full_history_sync_wait: Math.max(0, Math.ceil(waitMs / 1000)),
    last_full_history_sync: lastFinished?.toISOString() ?? null,
    total_plays_synced: done?.total ?? 0,
    current: latest ? toProgress(latest) : null,
    recent_plays_gap_at: gapAt?.toISOString() ?? null,
  };
}

/** Refuses an upload early when another import runs or the cool-down is not over. */
export async function assertMayImport(db: Db, userId: string, settings: ImportSettings) {
  const status = await importStatus(db, userId, settings);
  const current = status.current;
  if (current?.interrupted) {
    throw new HttpError(
      409,
      'Your last import was interrupted by a restart and resumes by itself within a minute. Wait for it to finish.',
    );
  }
  if (current && ['queued', 'running'].includes(current.state)) {
    throw new HttpError(
      409,
      `An import is already running (${current.files_done} of ${current.files_total} files done). Wait for it to finish.`,
    );
  }
  if (status.full_history_sync_wait > 0) {
    const minutes = Math.ceil(status.full_history_sync_wait / 60);
    throw new HttpError(429, `Another import is possible in ${minutes} minutes.`);
  }
}

/**
 * Checks a stored upload and queues its import. Rejected uploads are deleted and change nothing.
 * The import runs as a job: the dispatcher picks up queued imports (heartbeat in the past).
 */
export async function acceptUpload(
  db: Db,
  userId: string,
  archivePath: string,
  settings: ImportSettings,
): Promise<HistoryImportRow> {
  try {
    const files = await inspectArchive(archivePath, settings.limits);
    const [row] = await db
      .insert(historyImports)
      .values({
        userId,
        state: 'queued',
        archivePath,
        files: files.map((file) => file.name),
        heartbeatAt: new Date(0),
      })
      .returning();
    for (const listener of queuedListeners) listener();
    return row!;
  } catch (error) {
    await rm(archivePath, { force: true });
    if (error instanceof ImportRejected) throw new HttpError(400, error.message);
    if ((error as { cause?: { code?: string } }).cause?.code === '23505') {
      throw new HttpError(409, 'An import is already running. Wait for it to finish.');
    }
    throw error;
  }
}

/** Takes queued imports and those whose worker died (stale heartbeat), renewing their lease. */
export function leaseImports(db: Db): Promise<string[]> {
  const waiting = sql`${historyImports.state} IN ('queued', 'running')`;
  return leaseWaitingRows(db, historyImports, waiting, IMPORT_HEARTBEAT_STALE_SEC);
}

function addSkips(into: Record<string, number>, reason: SkipReason, count = 1) {
  if (count > 0) into[reason] = (into[reason] ?? 0) + count;
}

interface ReadFile {
  rows: number;
  plays: PlayColumns;
  skipped: Record<string, number>;
  errors: string[];
}

/** One history file's plays and skips; a file that is not valid JSON is reported, not thrown. */
async function readHistoryFile(
  archivePath: string,
  name: string,
  settings: ImportSettings,
): Promise<ReadFile> {
  const kind = historyFileKind(name)!;
  const file: ReadFile = { rows: 0, plays: new PlayColumns(), skipped: {}, errors: [] };
  try {
    // Rows are read as the file unpacks: a 12 MB file is never whole in memory, as text or parsed.
    await readEntryArray(archivePath, name, settings.limits.maxEntryBytes, (rows) => {
      file.rows += rows.length;
      for (const row of rows) {
        const outcome = readHistoryRow(kind, row);
        if ('play' in outcome) file.plays.add(outcome.play);
        else addSkips(file.skipped, outcome.skipped);
      }
    });
  } catch (error) {
    if (!(error instanceof SyntaxError) && !(error instanceof ImportRejected)) throw error;
    // Nothing of a broken file counts, not even the rows before the fault.
    const message = error instanceof SyntaxError ? 'not valid JSON' : (error as Error).message;
    return { rows: 0, plays: new PlayColumns(), skipped: {}, errors: [`${name}: ${message}`] };
  }
  return file;
}

/**
 * Imports an upload file by file. Each file is one transaction together with its progress, so
 * a restart resumes after the last whole file and re-running a file adds nothing twice. A file
 * that is not valid JSON is reported and skipped; the others still count. The next file is
 * unpacked and parsed while the database stores the current one.
 */
export async function runHistoryImport(
  db: Db,
  importId: string,
  settings: ImportSettings,
  log: FastifyBaseLogger,
): Promise<void> {
  const [job] = await db.select().from(historyImports).where(eq(historyImports.id, importId));
  if (!job || job.state === 'done' || job.state === 'failed') return;
  await db
    .update(historyImports)
    .set({ state: 'running', heartbeatAt: new Date() })
    .where(eq(historyImports.id, importId));
  // Alive is not the same as done with a file: a large file must not make the import look dead.
  const heartbeat = setInterval(() => {
    db.update(historyImports)
      .set({ heartbeatAt: new Date() })
      .where(and(eq(historyImports.id, importId), eq(historyImports.state, 'running')))
      .catch((error: unknown) => log.warn({ importId, err: error }, 'import heartbeat failed'));
  }, IMPORT_HEARTBEAT_SEC * 1000);
  const catalogue = new ImportCatalogue();
  const read = (index: number) => {
    if (index >= job.files.length) return undefined;
    const reading = readHistoryFile(job.archivePath, job.files[index]!, settings);
    // Awaited in its turn; this only keeps a failure meanwhile from going unhandled.
    reading.catch(() => {});
    return reading;
  };
  try {
    let next = read(job.filesDone);
    for (let index = job.filesDone; index < job.files.length; index++) {
      const name = job.files[index]!;
      const kind = historyFileKind(name)!;
      const { rows, plays, skipped, errors } = (await next)!;
      next = read(index + 1);
      await db.transaction(async (tx) => {
        const source = kind.startsWith('account') ? 'account_data' : 'extended_history';
        const stored = await storeImportedPlays(tx, job.userId, source, plays, catalogue);
        addSkips(skipped, 'duplicate', stored.duplicates);
        await tx
          .update(historyImports)
          .set({
            filesDone: index + 1,
            rowsRead: sql`${historyImports.rowsRead} + ${rows}`,
            playsAdded: sql`${historyImports.playsAdded} + ${stored.added}`,
            skipped: sql`(SELECT coalesce(jsonb_object_agg(key, total), '{}'::jsonb) FROM (
              SELECT key, sum(value::int) AS total FROM (
                SELECT * FROM jsonb_each_text(${historyImports.skipped})
                UNION ALL SELECT * FROM jsonb_each_text(${JSON.stringify(skipped)}::jsonb)) s
              GROUP BY key) t)`,
            errors: sql`${historyImports.errors} || ${JSON.stringify(errors)}::jsonb`,
            heartbeatAt: new Date(),
          })
          .where(eq(historyImports.id, importId));
      });
      log.info({ job: 'import-history', importId, file: name, rows, plays: plays.length });
    }
    await finish(db, importId, 'done');
  } catch (error) {
    log.error({ job: 'import-history', importId, err: error }, 'import failed');
    await finish(db, importId, 'failed', 'The import failed unexpectedly. Please upload again.');
    throw error;
  } finally {
    clearInterval(heartbeat);
    const [row] = await db
      .select({ state: historyImports.state })
      .from(historyImports)
      .where(eq(historyImports.id, importId));
    if (row && (row.state === 'done' || row.state === 'failed')) {
      await rm(job.archivePath, { force: true });
    }
  }
}

async function finish(db: Db, importId: string, state: 'done' | 'failed', error?: string) {
  await db
    .update(historyImports)
    .set({
      state,
      finishedAt: new Date(),
      ...(error && { errors: sql`${historyImports.errors} || ${JSON.stringify([error])}::jsonb` }),
    })
    .where(
      and(eq(historyImports.id, importId), inArray(historyImports.state, ['queued', 'running'])),
    );
}
