import { activityPage, activityQuery, likeRequest, likeResponse } from '@earshot/contract/activity';
import { errorBody } from '@earshot/contract/errors';
import { signedInUser } from '../../http/auth';
import { sendJsonText } from '../../http/json-text';
import { likedActivity, recentActivity, type ActivityParams } from '../../services/activity';
import { ActivityPageCache } from '../../services/activity-cache';
import { setLiked } from '../../services/likes';
import { friendIds } from '../../services/social';
import { tokenSourceFor } from '../../services/spotify-tokens';
import type { RoutePlugin } from '../context';

const errors = { 400: errorBody, 401: errorBody, 404: errorBody };

export const activityRoutes: RoutePlugin = async (
  app,
  { config, db, changes, auth, cipher, spotify, metrics },
) => {
  const cache = new ActivityPageCache(changes, config.activityCacheBytes);
  const feeds = [
    ['/api/recent', recentActivity, 'Recent plays of the viewer and friends, or of one of them'],
    ['/api/likes', likedActivity, 'Likes of the viewer and friends, or of one of them'],
  ] as const;
  for (const [path, feed, summary] of feeds) {
    app.get(
      path,
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
        const key = JSON.stringify([viewer.id, path, limit, before, include_me, user, q]);
        const { json, result } = await cache.page(
          key,
          async () => JSON.stringify(await feed(db, viewer, params)),
          // Whatever the scope, only the viewer's and their friends' writes can change the page.
          async () => [viewer.id, ...(await friendIds(db, viewer.id))],
        );
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
