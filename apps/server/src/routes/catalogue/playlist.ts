import { catalogueId, playlistDetail as playlistDetailResponse } from '@earshot/contract/catalogue';
import { errorBody } from '@earshot/contract/errors';
import { z } from 'zod';
import { playlistDetail } from '../../services/playlist-pages';
import type { RoutePlugin } from '../context';
import { pageViewer } from './viewer';

export const playlistRoutes: RoutePlugin = async (app, context) => {
  const { db, spotify, auth } = context;
  app.get(
    '/api/playlist/:id',
    {
      onRequest: auth.identifyUser,
      schema: {
        tags: ['catalogue'],
        summary: 'A playlist and its tracks; private ones only for their owner and collaborators',
        params: z.object({ id: catalogueId }),
        response: {
          200: playlistDetailResponse,
          400: errorBody,
          403: errorBody,
          404: errorBody,
          409: errorBody,
          502: errorBody,
          503: errorBody,
        },
      },
    },
    async (request) => playlistDetail(db, spotify, pageViewer(request, context), request.params.id),
  );
};
