import multipart from '@fastify/multipart';
import { errorBody } from '@earshot/contract/errors';
import { importStatus as importStatusResponse, uploadAccepted } from '@earshot/contract/import';
import { signedInUser } from '../../http/auth';
import { HttpError } from '../../errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UploadGate } from '../../services/import/upload-gate';
import { importSettings, malformedUpload, storeUpload } from '../../services/import/upload';
import {
  acceptUpload,
  assertMayImport,
  importStatus,
  toProgress,
} from '../../services/import/history-import';
import type { RoutePlugin } from '../context';

/** The extended-history import: upload (streamed to disk, checked, queued) and its status. */
export const importRoutes: RoutePlugin = async (app, { config, db, auth }) => {
  const settings = importSettings(config);
  const gate = new UploadGate(db, settings.dir, config.import.maxTotalBytes);
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
        await release();
      }
    },
  );

  async function receive(request: FastifyRequest, reply: FastifyReply, userId: string) {
    const upload = await request.file().catch(malformedUpload);
    if (!upload) throw new HttpError(400, 'No file was uploaded.');
    const stored = await storeUpload(settings, upload);
    const row = await acceptUpload(db, userId, stored, settings);
    return reply.code(202).send({ message: 'Upload received', import: toProgress(row) });
  }
};
