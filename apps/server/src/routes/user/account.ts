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
import { requestBetaAccess } from '../../services/beta';
import { PublicProfiles } from '../../services/public-profile';
import { changeUsername, toCurrentUser } from '../../services/users';
import { sendJsonText } from '../../http/json-text';
import type { RoutePlugin } from '../context';

const BETA_REQUESTED = "Thanks! We'll let you in as soon as an admin accepts your address.";

export const accountRoutes: RoutePlugin = async (app, { config, db, changes, auth, metrics }) => {
  const profiles = new PublicProfiles(db, changes, config.activityCacheBytes > 0);

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
      if (request.user) return profiles.forViewer(request.params.id, request.user);
      const { json, result } = await profiles.forVisitor(request.params.id);
      metrics.profileCache.inc({ result });
      return sendJsonText(reply, json);
    },
  );
};
