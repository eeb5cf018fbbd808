import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '../../errors';
import { DEFAULT_ARCHIVE_LIMITS } from './archive';
import type { ImportSettings } from './history-import';
import { zipStructureCheck } from './zip-stream-check';

export function importSettings(config: {
  import: Omit<ImportSettings, 'limits'> & { maxTotalBytes: number };
}): ImportSettings {
  const { dir, maxUploadBytes, cooldownSec } = config.import;
  return { dir, maxUploadBytes, cooldownSec, limits: DEFAULT_ARCHIVE_LIMITS };
}

/** A form the parser gave up on (cut short, bad boundary) is the client's fault: 400, not 500. */
export function malformedUpload(error: unknown): never {
  const { statusCode, syscall } = error as { statusCode?: number; syscall?: string };
  // Already a clear 4xx, or the disk failed (our fault, not the client's).
  if ((statusCode !== undefined && statusCode < 500) || syscall !== undefined) throw error;
  throw new HttpError(400, 'The upload is not a valid multipart form, or it was cut short.');
}

const gib = (bytes: number) => `${Math.round((bytes / 1024 ** 3) * 10) / 10} GiB`;

/** An uploaded file as the multipart parser streams it (`truncated` once past its size limit). */
export interface UploadedFile {
  filename: string;
  file: Readable & { truncated: boolean };
}

/**
 * Streams an uploaded export to a new file under the import folder, checking on the way that it
 * is a sound ZIP within the upload's and the import's limits; returns its path. Nothing is left on disk when it is refused.
 */
export async function storeUpload(settings: ImportSettings, upload: UploadedFile) {
  if (!upload.filename.toLowerCase().endsWith('.zip')) {
    upload.file.resume();
    throw new HttpError(400, 'Upload the .zip file Spotify sent (other files are not accepted).');
  }
  await mkdir(settings.dir, { recursive: true });
  const stored = path.join(settings.dir, `${randomUUID()}.zip`);
  const tooLarge = () =>
    new HttpError(413, `The file is larger than the ${gib(settings.maxUploadBytes)} limit.`);
  try {
    await pipeline(upload.file, zipStructureCheck(settings.limits), createWriteStream(stored));
  } catch (error) {
    await rm(stored, { force: true });
    // A file cut at the size limit reads as a cut-short archive: the limit is the reason.
    if (upload.file.truncated) throw tooLarge();
    malformedUpload(error);
  }
  if (upload.file.truncated) {
    await rm(stored, { force: true });
    throw tooLarge();
  }
  return stored;
}
