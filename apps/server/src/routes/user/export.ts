import { errorBody } from '@earshot/contract/errors';
import { dataExport, dataExportState } from '@earshot/contract/export';
import { z } from 'zod';
import { signedInUser } from '../../http/auth';
import {
  dataExportState as exportStateOf,
  openReadyExport,
  startDataExport,
} from '../../services/export/data-export';
import type { RoutePlugin } from '../context';

/** "Download my data" (docs/product.md §2, Settings): start an export job, follow it, download it. */
export const exportRoutes: RoutePlugin = async (app, { config, db, auth }) => {
  app.get(
    '/api/user/export',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['user'],
        summary: "The user's latest data export: pending, running (with progress), ready or failed",
        response: { 200: dataExportState, 401: errorBody },
      },
    },
    async (request) => exportStateOf(db, signedInUser(request).id),
  );

  app.post(
    '/api/user/export',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['user'],
        summary:
          "Starts a ZIP of the user's data (profile, plays, likes, friends, ignores; JSON and CSV) as a job; answers the running one if any",
        response: { 202: dataExport, 401: errorBody },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await startDataExport(db, signedInUser(request).id, config.exportDir)),
  );

  app.get(
    '/api/user/export/download',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['user'],
        summary: "Downloads the user's finished data export (a ZIP)",
        // The ZIP file (application/zip).
        response: { 200: z.unknown(), 401: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const file = await openReadyExport(db, user.id);
      const day = file.createdAt.toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', file.sizeBytes)
        .header('content-disposition', `attachment; filename="earshot-${user.username}-${day}.zip"`)
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  );
};
