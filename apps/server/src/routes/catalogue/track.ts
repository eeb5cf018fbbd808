import { catalogueId, trackDetail as trackDetailResponse } from '@earshot/contract/catalogue';
import { errorBody } from '@earshot/contract/errors';
import { z } from 'zod';
import { trackDetail } from '../../services/catalogue-pages';
import type { RoutePlugin } from '../context';
import { pageViewer } from './viewer';

export const trackRoutes: RoutePlugin = async (app, context) => {
  const { db, spotify, auth, similarTracks } = context;
  app.get(
    '/api/track/:id',
    {
      onRequest: auth.identifyUser,
      schema: {
        tags: ['catalogue'],
        summary: 'A track: its likes, album artists, other versions and similar tracks',
        params: z.object({ id: catalogueId }),
        response: {
          200: trackDetailResponse,
          400: errorBody,
          404: errorBody,
          409: errorBody,
          502: errorBody,
          503: errorBody,
        },
      },
    },
    async (request) =>
      trackDetail(db, spotify, similarTracks, pageViewer(request, context), request.params.id),
  );
};
