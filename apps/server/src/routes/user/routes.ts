import { errorBody } from '@earshot/contract/errors';
import { publicProfile } from '@earshot/contract/profile';
import { betaEmail, betaRequested } from '@earshot/contract/admin';
import {
  accountDeletion,
  currentUser,
  usernameUpdate,
  usernameUpdated,
} from '@earshot/contract/user';
import { z } from 'zod';
import { signedInUser } from '../../http/auth';
import { deleteAccount } from '../../services/account';
import { ActivityPageCache } from '../../services/activity-cache';
import { requestBetaAccess } from '../../services/beta';
import { accountExport } from '../../services/export';
import { publicProfileOf } from '../../services/public-profile';
import { changeUsername, findUserByHandle, toCurrentUser } from '../../services/users';
import { HttpError } from '../../errors';
import { sendJsonText } from '../../http/json-text';
import type { RoutePlugin } from '../context';

/** The visitors' profiles also change with time ("last 30 days", weekly plays): a minute at most. */
const VISITOR_PROFILE_MAX_AGE_MS = 60_000;
/** Memory for visitors' profiles as sent (about 5 KB each). */
const VISITOR_PROFILE_CACHE_BYTES = 16 * 1024 * 1024;

const BETA_REQUESTED = "Thanks! We'll let you in as soon as an admin accepts your address.";

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

  app.delete(
    '/api/user/me',
    {
      // Authorized before the body is read.
      preValidation: auth.requireUser,
      schema: {
        tags: ['user'],
        summary: 'Deletes the account and all its data, and logs it out everywhere',
        body: accountDeletion,
        response: { 204: z.null(), 400: errorBody, 401: errorBody },
      },
    },
    async (request, reply) => {
      await deleteAccount(db, signedInUser(request).id, request.body.confirmation);
      auth.clearSessionCookie(reply);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/user/export',
    {
      config: { rateLimit: { max: 5 } },
      preHandler: auth.requireUser,
      schema: {
        tags: ['user'],
        summary:
          "Downloads the user's data as a ZIP: profile, plays, likes, friends, ignores (JSON and CSV)",
        // A ZIP stream (application/zip), sent as it is built.
        response: { 200: z.unknown(), 401: errorBody },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="earshot-${user.username}-${day}.zip"`)
        .header('cache-control', 'no-store')
        .send(accountExport(db, user));
    },
  );

  app.post(
    '/api/user/beta/request',
    {
      config: { rateLimit: { max: 10 } },
      schema: {
        tags: ['user'],
        summary: 'Asks for beta access; answers the same whether or not the address is known',
        body: betaEmail,
        response: { 200: betaRequested, 400: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      await requestBetaAccess(db, request.body.email);
      return { detail: BETA_REQUESTED };
    },
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
