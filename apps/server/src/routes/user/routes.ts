import { errorBody } from '@earshot/contract/errors';
import { publicProfile } from '@earshot/contract/profile';
import { currentUser, usernameUpdate, usernameUpdated } from '@earshot/contract/user';
import { z } from 'zod';
import { signedInUser } from '../../http/auth';
import { ActivityPageCache } from '../../services/activity-cache';
import { publicProfileOf } from '../../services/public-profile';
import { changeUsername, findUserByHandle, toCurrentUser } from '../../services/users';
import { HttpError } from '../../errors';
import { sendJsonText } from '../../http/json-text';
import type { RoutePlugin } from '../context';

/** The visitors' profiles also change with time ("last 30 days", weekly plays): a minute at most. */
const VISITOR_PROFILE_MAX_AGE_MS = 60_000;
/** Memory for visitors' profiles as sent (about 5 KB each). */
const VISITOR_PROFILE_CACHE_BYTES = 16 * 1024 * 1024;

export const userRoutes: RoutePlugin = async (app, { config, db, changes, auth, metrics }) => {
  // Anyone may look at a profile without logging in, often many at once: for visitors it is
  // kept as sent until its owner's data or the catalogue changes (see decision 0011).
  const visitorProfiles = new ActivityPageCache(
    changes,
    config.activityCacheBytes > 0 ? VISITOR_PROFILE_CACHE_BYTES : 0,
    VISITOR_PROFILE_MAX_AGE_MS,
  );

  app.get(
    '/api/user/me',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['user'],
        summary: 'The logged-in user',
        response: { 200: currentUser, 401: errorBody },
      },
    },
    async (request) => toCurrentUser(signedInUser(request), config.adminEmails),
  );

  app.post(
    '/api/user/username',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['user'],
        summary: 'Changes the public username (trimmed; unique ignoring case)',
        body: usernameUpdate,
        response: { 200: usernameUpdated, 400: errorBody, 401: errorBody, 409: errorBody },
      },
    },
    async (request) => ({
      username: await changeUsername(db, signedInUser(request).id, request.body.username),
    }),
  );

  app.get(
    '/api/user/:id/public',
    {
      preHandler: auth.identifyUser,
      schema: {
        tags: ['user'],
        summary: 'A public profile: stats for everyone, highlights for friends and the owner',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: publicProfile, 404: errorBody },
      },
    },
    async (request, reply) => {
      const findProfileOwner = async () => {
        const user = await findUserByHandle(db, request.params.id);
        if (!user) throw new HttpError(404, 'Profile not found');
        return user;
      };
      if (request.user) return publicProfileOf(db, await findProfileOwner(), request.user);
      let ownerId = '';
      const { json, result } = await visitorProfiles.page(
        request.params.id.toLowerCase(),
        async () => {
          const owner = await findProfileOwner();
          ownerId = owner.id;
          return JSON.stringify(await publicProfileOf(db, owner, null));
        },
        async () => [ownerId],
      );
      metrics.profileCache.inc({ result });
      return sendJsonText(reply, json);
    },
  );
};
