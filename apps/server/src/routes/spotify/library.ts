import { artistFollowState, catalogueId, playlistList } from '@earshot/contract/catalogue';
import { errorBody } from '@earshot/contract/errors';
import { z } from 'zod';
import { signedInUser } from '../../http/auth';
import { setArtistFollowed } from '../../services/follows';
import { viewerPlaylists } from '../../services/playlist-pages';
import { tokenSourceFor } from '../../services/spotify-tokens';
import type { RoutePlugin } from '../context';

/** The viewer's Spotify library as the pages use it: playlists, and following artists. */
export const spotifyLibraryRoutes: RoutePlugin = async (app, { db, cipher, spotify, auth }) => {
  app.get(
    '/api/spotify/playlists',
    {
      onRequest: auth.requireUser,
      schema: {
        tags: ['spotify'],
        summary: "The viewer's playlists, in their Spotify library's order",
        response: { 200: playlistList, 401: errorBody, 409: errorBody, 502: errorBody },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      return viewerPlaylists(db, spotify, {
        user,
        spotify: tokenSourceFor(db, cipher, spotify, user.id),
      });
    },
  );

  for (const [method, followed] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/api/spotify/follow/artist/:id',
      onRequest: auth.requireUser,
      schema: {
        tags: ['spotify'],
        summary: followed
          ? 'Follows an artist on Spotify; answers the final state'
          : 'Unfollows an artist on Spotify; answers the final state',
        params: z.object({ id: catalogueId }),
        response: {
          200: artistFollowState,
          400: errorBody,
          401: errorBody,
          404: errorBody,
          409: errorBody,
          502: errorBody,
          503: errorBody,
        },
      },
      handler: async (request) => {
        const user = signedInUser(request);
        const { id } = request.params as { id: string };
        const auth = tokenSourceFor(db, cipher, spotify, user.id);
        return setArtistFollowed(db, spotify, auth, user.id, id, followed);
      },
    });
  }
};
