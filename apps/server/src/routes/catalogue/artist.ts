import {
  artistAlbums as artistAlbumsResponse,
  artistDetail as artistDetailResponse,
  artistTracks as artistTracksResponse,
  catalogueId,
} from '@earshot/contract/catalogue';
import { errorBody } from '@earshot/contract/errors';
import { z } from 'zod';
import { artistAlbums, artistDetail, artistTracks } from '../../services/catalogue-pages';
import type { RoutePlugin } from '../context';
import { pageViewer } from './viewer';

const params = z.object({ id: catalogueId });
const errors = { 400: errorBody, 404: errorBody, 409: errorBody, 502: errorBody, 503: errorBody };

/** The artist page's calls: public, with the viewer's own fields when logged in. */
export const artistRoutes: RoutePlugin = async (app, context) => {
  const { db, spotify, auth } = context;

  app.get(
    '/api/artist/:id',
    {
      onRequest: auth.identifyUser,
      schema: {
        tags: ['catalogue'],
        summary: 'An artist: picture, genres, followers, popularity, follow state, tab counts',
        params,
        response: { 200: artistDetailResponse, ...errors },
      },
    },
    async (request) => artistDetail(db, spotify, pageViewer(request, context), request.params.id),
  );

  app.get(
    '/api/artist/:id/tracks',
    {
      onRequest: auth.identifyUser,
      schema: {
        tags: ['catalogue'],
        summary: "The artist's tracks Earshot knows, the most played first",
        params,
        response: { 200: artistTracksResponse, ...errors },
      },
    },
    async (request) => artistTracks(db, pageViewer(request, context), request.params.id),
  );

  app.get(
    '/api/artist/:id/albums',
    {
      onRequest: auth.identifyUser,
      schema: {
        tags: ['catalogue'],
        summary: "The artist's releases, newest first",
        params,
        response: { 200: artistAlbumsResponse, ...errors },
      },
    },
    async (request) => artistAlbums(db, spotify, pageViewer(request, context), request.params.id),
  );
};
