import { errorBody } from '@earshot/contract/errors';
import { z } from 'zod';
import { SESSION_COOKIE, deleteSession } from '../services/sessions';
import type { RoutePlugin } from './context';

export const sessionRoutes: RoutePlugin = async (app, { db, auth }) => {
  app.post(
    '/api/logout',
    {
      schema: {
        tags: ['session'],
        summary: 'Ends the current session (answers 204 whether or not one was open)',
        response: { 204: z.null(), 403: errorBody },
      },
    },
    async (request, reply) => {
      const sessionId = request.cookies[SESSION_COOKIE];
      if (sessionId) await deleteSession(db, sessionId);
      auth.clearSessionCookie(reply);
      return reply.code(204).send(null);
    },
  );
};
