import { albumDetail as albumDetailResponse, catalogueId } from '@earshot/contract/catalogue';
import { errorBody } from '@earshot/contract/errors';
import { z } from 'zod';
import { albumDetail } from '../../services/catalogue-pages';
import type { RoutePlugin } from '../context';
import { pageViewer } from './viewer';

export const albumRoutes: RoutePlugin = async (app, context) => {
  const { db, spotify, auth } = context;
  app.get(
    '/api/album/:id',
    {
      onRequest: auth.identifyUser,
      schema: {
        tags: ['catalogue'],
        summary: 'An album: cover, artists, release date and its tracks',
        params: z.object({ id: catalogueId }),
        response: {
          200: albumDetailResponse,
          400: errorBody,
          404: errorBody,
          409: errorBody,
          502: errorBody,
          503: errorBody,
        },
      },
    },
    async (request) => albumDetail(db, spotify, pageViewer(request, context), request.params.id),
  );
};
