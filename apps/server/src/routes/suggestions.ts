import { errorBody } from '@earshot/contract/errors';
import { onRepeatQuery, suggestionList, suggestionsQuery } from '@earshot/contract/suggestions';
import { signedInUser } from '../http/auth';
import {
  friendsFavorites,
  likeOnRepeat,
  rediscoverLikes,
  unheardFromFollowed,
} from '../services/suggestions';
import type { RoutePlugin } from './context';

const response = { 200: suggestionList, 400: errorBody, 401: errorBody };

/** The Discover sections (docs/product.md, Discover): suggestions for the logged-in viewer. */
export const suggestionRoutes: RoutePlugin = async (app, { db, auth }) => {
  const sections = [
    [
      '/api/suggestions/unheard-from-followed',
      unheardFromFollowed,
      'New from Followed Artists: recent releases of followed artists not played yet',
    ],
    [
      '/api/suggestions/friends-favorites',
      friendsFavorites,
      'Popular with Friends: what friends played or liked lately, new to the viewer',
    ],
    [
      '/api/suggestions/rediscover-likes',
      rediscoverLikes,
      'Rediscover Likes: liked songs not played for a long time',
    ],
  ] as const;
  for (const [path, section, summary] of sections) {
    app.get(
      path,
      {
        // Logged in first: a visitor learns nothing, not even which queries are valid.
        preValidation: auth.requireUser,
        schema: { tags: ['suggestions'], summary, querystring: suggestionsQuery, response },
      },
      async (request) => section(db, signedInUser(request).id, request.query.limit),
    );
  }

  app.get(
    '/api/suggestions/like-on-repeat',
    {
      preValidation: auth.requireUser,
      schema: {
        tags: ['suggestions'],
        summary: "Like Your On-Repeat: the viewer's most played songs not liked yet",
        querystring: onRepeatQuery,
        response,
      },
    },
    async (request) =>
      likeOnRepeat(db, signedInUser(request).id, request.query.limit, request.query.days),
  );
};
