import { errorBody } from '@earshot/contract/errors';
import { currentUser, usernameUpdate, usernameUpdated } from '@earshot/contract/user';
import { signedInUser } from '../../http/auth';
import { changeUsername, toCurrentUser } from '../../services/users';
import type { RoutePlugin } from '../context';

export const userRoutes: RoutePlugin = async (app, { config, db, auth }) => {
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
};
