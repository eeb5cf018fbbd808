import { errorBody } from '@earshot/contract/errors';
import { searchQuery, searchResults } from '@earshot/contract/search';
import { RecentSpotifySearches, search } from '../services/search';
import { tokenSourceFor } from '../services/spotify-tokens';
import type { RoutePlugin } from './context';

export const searchRoutes: RoutePlugin = async (app, { db, auth, cipher, spotify }) => {
  const recentSpotifySearches = new RecentSpotifySearches();
  app.get(
    '/api/search',
    {
      // Visitors may search too (docs/product.md §6); who asks is known
      // before the query is read.
      preValidation: auth.identifyUser,
      schema: {
        tags: ['search'],
        summary: 'Tracks, albums, artists and people matching a query, best first',
        querystring: searchQuery,
        response: {
          200: searchResults,
          400: errorBody,
          409: errorBody,
          502: errorBody,
          503: errorBody,
        },
      },
    },
    async (request) => {
      const viewer = request.user;
      return search(db, {
        text: request.query.q,
        limit: request.query.limit,
        viewerId: viewer?.id,
        ...(viewer && {
          fill: {
            spotify,
            auth: tokenSourceFor(db, cipher, spotify, viewer.id),
            recent: recentSpotifySearches,
          },
        }),
      });
    },
  );
};
