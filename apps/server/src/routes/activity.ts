import { activityPage, activityQuery, likeRequest, likeResponse } from '@earshot/contract/activity';
import { errorBody } from '@earshot/contract/errors';
import { signedInUser } from '../http/auth';
import { sendJsonText } from '../http/json-text';
import type { ActivityParams } from '../services/activity';
import { ActivityFeeds } from '../services/activity-cache';
import { setLiked } from '../services/likes';
import { tokenSourceFor } from '../services/spotify-tokens';
import type { RoutePlugin } from './context';

const errors = { 400: errorBody, 401: errorBody, 404: errorBody };

export const activityRoutes: RoutePlugin = async (
  app,
  { config, db, changes, auth, cipher, spotify, metrics },
) => {
  const feeds = new ActivityFeeds(db, changes, config.activityCacheBytes);
  const routes = [
    {
      url: '/api/recent',
      feed: 'recent',
      summary: 'Recent plays of the viewer and friends, or of one of them',
    },
    {
      url: '/api/likes',
      feed: 'likes',
      summary: 'Likes of the viewer and friends, or of one of them',
    },
  ] as const;
  for (const { url, feed, summary } of routes) {
    app.get(
      url,
      {
        preHandler: auth.requireUser,
        schema: {
          tags: ['activity'],
          summary,
          querystring: activityQuery,
          response: { 200: activityPage, ...errors },
        },
      },
      async (request, reply) => {
        const viewer = signedInUser(request);
        const { limit, before, include_me, user, q } = request.query;
        const params: ActivityParams = { limit, before, includeMe: include_me, user, q };
        const { json, result } = await feeds.page(viewer, feed, params);
        metrics.activityCache.inc({ result });
        return sendJsonText(reply, json);
      },
    );
  }

  app.post(
    '/api/like',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['activity'],
        summary: "Likes or unlikes a song in the user's Spotify library",
        body: likeRequest,
        response: { 200: likeResponse, ...errors, 409: errorBody, 502: errorBody, 503: errorBody },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { uid, liked } = request.body;
      const auth = tokenSourceFor(db, cipher, spotify, user.id);
      return { uid, liked: await setLiked(db, spotify, auth, user.id, uid, liked) };
    },
  );
};
