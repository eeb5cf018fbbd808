import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { errorBody } from '@earshot/contract/errors';
import { importStatus as importStatusResponse, uploadAccepted } from '@earshot/contract/import';
import { signedInUser } from '../../http/auth';
import { HttpError } from '../../errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_ARCHIVE_LIMITS } from '../../services/import/archive';
import { UploadGate, zipSignatureCheck } from '../../services/import/upload-gate';
import {
  acceptUpload,
  assertMayImport,
  importStatus,
  toProgress,
  type ImportSettings,
} from '../../services/import/history-import';
import type { RoutePlugin } from '../context';

export function importSettings(config: {
  import: Omit<ImportSettings, 'limits'> & { maxTotalBytes: number };
}): ImportSettings {
  const { dir, maxUploadBytes, cooldownSec } = config.import;
  return { dir, maxUploadBytes, cooldownSec, limits: DEFAULT_ARCHIVE_LIMITS };
}

/** A form the parser gave up on (cut short, bad boundary) is the client's fault: 400, not 500. */
function malformedUpload(error: unknown): never {
  const { statusCode, syscall } = error as { statusCode?: number; syscall?: string };
  // Already a clear 4xx, or the disk failed (our fault, not the client's).
  if ((statusCode !== undefined && statusCode < 500) || syscall !== undefined) throw error;
  throw new HttpError(400, 'The upload is not a valid multipart form, or it was cut short.');
}

const gib = (bytes: number) => `${Math.round((bytes / 1024 ** 3) * 10) / 10} GiB`;

/** The extended-history import: upload (streamed to disk, checked, queued) and its status. */
export const importRoutes: RoutePlugin = async (app, { config, db, auth }) => {
  const settings = importSettings(config);
  const gate = new UploadGate(settings.dir, config.import.maxTotalBytes);
  await app.register(multipart, {
    limits: { fileSize: settings.maxUploadBytes, files: 1, fields: 0, parts: 1 },
  });

  app.get(
    '/api/spotify/import',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['import'],
        summary: 'Import status: wait time, last import, total imported, latest progress',
        response: { 200: importStatusResponse, 401: errorBody },
      },
    },
    async (request) => importStatus(db, signedInUser(request).id, settings),
  );

  app.post(
    '/api/spotify/import',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['import'],
        summary:
          "Uploads Spotify's history export (.zip, multipart field 'file'); imports as a job",
        consumes: ['multipart/form-data'],
        response: {
          202: uploadAccepted,
          400: errorBody,
          401: errorBody,
          409: errorBody,
          413: errorBody,
          429: errorBody,
        },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      await assertMayImport(db, user.id, settings);
      if (!request.isMultipart()) {
        throw new HttpError(400, 'Send the .zip file as multipart/form-data.');
      }
      const declared = Number(request.headers['content-length']);
      const expected = Number.isFinite(declared) ? declared : settings.maxUploadBytes;
      const release = await gate.admit(user.id, Math.min(expected, settings.maxUploadBytes));
      try {
        return await receive(request, reply, user.id);
      } finally {
        release();
      }
    },
  );

  async function receive(request: FastifyRequest, reply: FastifyReply, userId: string) {
    const file = await request.file().catch(malformedUpload);
    if (!file) throw new HttpError(400, 'No file was uploaded.');
    if (!file.filename.toLowerCase().endsWith('.zip')) {
      file.file.resume();
      throw new HttpError(400, 'Upload the .zip file Spotify sent (other files are not accepted).');
    }
    await mkdir(settings.dir, { recursive: true });
    const stored = path.join(settings.dir, `${randomUUID()}.zip`);
    try {
      await pipeline(file.file, zipSignatureCheck(), createWriteStream(stored));
    } catch (error) {
      await rm(stored, { force: true });
      malformedUpload(error);
    }
    if (file.file.truncated) {
      await rm(stored, { force: true });
      throw new HttpError(
        413,
        `The file is larger than the ${gib(settings.maxUploadBytes)} limit.`,
      );
    }
    const row = await acceptUpload(db, userId, stored, settings);
    return reply.code(202).send({ message: 'Upload received', import: toProgress(row) });
  }
};
