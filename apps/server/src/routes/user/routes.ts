import { errorBody } from '@earshot/contract/errors';
import { currentUser } from '@earshot/contract/user';
import { signedInUser } from '../../http/auth';
import { toCurrentUser } from '../../services/users';
import type { RoutePlugin } from '../context';

export const userRoutes: RoutePlugin = async (app, { config, auth }) => {
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
};
