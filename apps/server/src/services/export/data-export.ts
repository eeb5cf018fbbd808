import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DATA_EXPORT_KEEP_HOURS,
  type DataExport,
  type DataExportState,
} from '@earshot/contract/export';
import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { leaseWaitingRows } from '../../db/lease';
import { dataExports, type DataExportRow } from '../../db/schema/exports';
import { HttpError } from '../../errors';
import { findUserByHandle, lockUser } from '../users';
import { countArchiveRows, writeArchive, type ArchiveProgress } from './archive';

/** A running export saves its progress (and so its heartbeat) this often. */
export const EXPORT_PROGRESS_SAVE_MS = 1_000;
/** A heartbeat older than this means the export's worker died: another one starts it again. */
export const EXPORT_HEARTBEAT_STALE_SEC = 20;

const KEEP_MS = DATA_EXPORT_KEEP_HOURS * 3600 * 1000;
const ACTIVE = ['pending', 'running'] as const;

const queuedListeners = new Set<() => void>();

/**
 * Calls `listener` whenever an export is started in this process, so a job runner here takes it
 * at once rather than at its next dispatch. Returns the unsubscribe function.
 */
export function onExportQueued(listener: () => void): () => void {
  queuedListeners.add(listener);
  return () => queuedListeners.delete(listener);
}

/** The export's file while it is being written: the finished name appears only when whole. */
const partPath = (filePath: string) => `${filePath}.part`;

/** Removes a file that may not exist, nor its directory (ENOTDIR: a file is where it would be). */
async function removeFile(file: string): Promise<void> {
  await rm(file, { force: true }).catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'ENOTDIR') throw error;
  });
}

async function removeFiles(filePaths: readonly string[]): Promise<void> {
  for (const filePath of filePaths) {
    await removeFile(filePath);
    await removeFile(partPath(filePath));
  }
}

export function toDataExport(row: DataExportRow): DataExport {
  return {
    id: row.id,
    status: row.status,
    phase: row.status === 'running' ? row.phase : null,
    rows_written: row.rowsWritten,
    rows_total: row.rowsTotal,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    expires_at:
      row.status === 'ready' && row.finishedAt
        ? new Date(row.finishedAt.getTime() + KEEP_MS).toISOString()
        : null,
    size_bytes: row.sizeBytes,
    error: row.error,
  };
}

/** Exports not yet expired: running ones, and finished ones younger than the keeping time. */
const kept = () =>
  or(isNull(dataExports.finishedAt), gt(dataExports.finishedAt, new Date(Date.now() - KEEP_MS)));

async function latestExport(db: Db, userId: string): Promise<DataExportRow | undefined> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), kept()))
    .orderBy(desc(dataExports.createdAt))
    .limit(1);
  return row;
}

/** `GET /api/user/export`: the user's latest export, whatever its state. */
export async function dataExportState(db: Db, userId: string): Promise<DataExportState> {
  const row = await latestExport(db, userId);
  return { export: row ? toDataExport(row) : null };
}

/**
 * Starts an export of the user's data as a job, or answers the one already pending or running
 * (one at a time per user). A new export replaces the user's earlier ones and their files.
 */
export async function startDataExport(db: Db, userId: string, dir: string): Promise<DataExport> {
  const { row, replaced } = await db.transaction(async (tx) => {
    // Starts of one user take turns: two at once still make one export.
    if (!(await lockUser(tx, userId))) throw new HttpError(404, 'Account not found');
    const [active] = await tx
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.userId, userId), inArray(dataExports.status, ACTIVE)));
    if (active) return { row: active, replaced: [] };
    const earlier = await tx
      .delete(dataExports)
      .where(eq(dataExports.userId, userId))
      .returning({ filePath: dataExports.filePath });
    const id = randomUUID();
    const [created] = await tx
      .insert(dataExports)
      .values({
        id,
        userId,
        status: 'pending',
        filePath: path.join(dir, `${id}.zip`),
        // Due at once: the dispatcher leases exports whose heartbeat is stale.
        heartbeatAt: new Date(0),
      })
      .returning();
    return { row: created!, replaced: earlier.map((file) => file.filePath) };
  });
  await removeFiles(replaced);
  if (row.status === 'pending') for (const listener of queuedListeners) listener();
  return toDataExport(row);
}

/** The finished ZIP of the user's latest export, opened for sending. */
export async function openReadyExport(
  db: Db,
  userId: string,
): Promise<{ stream: Readable; sizeBytes: number; createdAt: Date }> {
  const row = await latestExport(db, userId);
  if (row?.status !== 'ready') {
    throw new HttpError(404, 'No export is ready to download. Start one first.');
  }
  try {
    const file = await open(row.filePath);
    const { size } = await file.stat();
    return { stream: file.createReadStream(), sizeBytes: size, createdAt: row.createdAt };
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
    throw new HttpError(404, 'The export file is gone. Start a new export.');
  }
}

/** Takes pending exports and those whose worker died (stale heartbeat), renewing their lease. */
export function leaseExports(db: Db): Promise<string[]> {
  const waiting = sql`${dataExports.status} IN ('pending', 'running')`;
  return leaseWaitingRows(db, dataExports, waiting, EXPORT_HEARTBEAT_STALE_SEC);
}

/** Deletes exports finished longer ago than the keeping time, with their files. */
export async function removeExpiredExports(db: Db): Promise<number> {
  const expired = await db
    .delete(dataExports)
    .where(sql`${dataExports.finishedAt} < ${new Date(Date.now() - KEEP_MS)}`)
    .returning({ filePath: dataExports.filePath });
  await removeFiles(expired.map((row) => row.filePath));
  return expired.length;
}

/**
 * The files of the user's exports, for an account deletion: their rows go with the user row,
 * the files are removed by `removeExportFiles` once that deletion is committed.
 */
export async function exportFilesOf(tx: Tx, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ filePath: dataExports.filePath })
    .from(dataExports)
    .where(eq(dataExports.userId, userId));
  return rows.map((row) => row.filePath);
}

export const removeExportFiles = removeFiles;

/** The export's row was deleted while it ran (a newer export, the account deleted). */
class ExportWithdrawn extends Error {}

/** What the user reads when an export failed: what went wrong, in words they can act on. */
function failureDetail(error: unknown): string {
  // File system errors name their path; the database's do not.
  const { code, path: file } = error as { code?: string; path?: string };
  if (file !== undefined) {
    return `The export could not be written to the server's disk (${code ?? 'error'}). Please try again later.`;
  }
  return 'The export failed while reading your data. Please try again.';
}

/**
 * Writes an export's ZIP (as `<file>.part`, renamed when whole) and marks it ready, saving its
 * progress every second meanwhile. A failure is recorded on the export with a detail for the
 * user and thrown. An export whose worker died is started again from the beginning.
 */
export async function runDataExport(
  db: Db,
  exportId: string,
  log: FastifyBaseLogger,
  { progressEveryMs = EXPORT_PROGRESS_SAVE_MS } = {},
): Promise<void> {
  const [job] = await db.select().from(dataExports).where(eq(dataExports.id, exportId));
  if (!job || !(ACTIVE as readonly string[]).includes(job.status)) return;
  const user = await findUserByHandle(db, job.userId);
  if (!user) return;
  const thisExport = and(eq(dataExports.id, exportId), inArray(dataExports.status, ACTIVE));
  await db
    .update(dataExports)
    .set({ status: 'running', phase: null, rowsWritten: 0, heartbeatAt: new Date() })
    .where(thisExport);
  const progress: ArchiveProgress = { phase: null, rowsWritten: 0 };
  const abort = new AbortController();
  let saving: Promise<void> = Promise.resolve();
  const save = async () => {
    const saved = await db
      .update(dataExports)
      .set({ phase: progress.phase, rowsWritten: progress.rowsWritten, heartbeatAt: new Date() })
      .where(thisExport)
      .returning({ id: dataExports.id });
    if (saved.length === 0) abort.abort(new ExportWithdrawn());
  };
  const timer = setInterval(() => {
    saving = saving
      .then(save)
      .catch((error: unknown) => log.warn({ exportId, err: error }, 'export progress not saved'));
  }, progressEveryMs);
  const part = partPath(job.filePath);
  try {
    const rowsTotal = await countArchiveRows(db, job.userId);
    await db.update(dataExports).set({ rowsTotal }).where(thisExport);
    await mkdir(path.dirname(job.filePath), { recursive: true });
    const sizeBytes = await writeArchive(db, user, part, progress, abort.signal);
    clearInterval(timer);
    await saving;
    await rename(part, job.filePath);
    const finished = await db
      .update(dataExports)
      .set({
        status: 'ready',
        phase: null,
        rowsWritten: progress.rowsWritten,
        sizeBytes,
        finishedAt: new Date(),
        heartbeatAt: new Date(),
      })
      .where(thisExport)
      .returning({ id: dataExports.id });
    if (finished.length === 0) await removeFiles([job.filePath]);
  } catch (error) {
    clearInterval(timer);
    await saving;
    await removeFile(part);
    if (abort.signal.reason instanceof ExportWithdrawn) {
      log.info({ exportId }, 'export withdrawn while it ran');
      return;
    }
    log.error({ job: 'export-data', exportId, err: error }, 'export failed');
    await db
      .update(dataExports)
      .set({
        status: 'failed',
        phase: null,
        rowsWritten: progress.rowsWritten,
        error: failureDetail(error),
        finishedAt: new Date(),
      })
      .where(thisExport);
    throw error;
  }
}
