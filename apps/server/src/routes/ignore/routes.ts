import { errorBody } from '@earshot/contract/errors';
import { ignoredList as ignoredListResponse, ignoreState } from '@earshot/contract/ignore';
import { z } from 'zod';
import { signedInUser } from '../../http/auth';
import { ignore, ignoredList, report, unignore } from '../../services/ignore';
import { isAdminEmail } from '../../services/users';
import type { RoutePlugin } from '../context';

const errors = { 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody };
const key = z.string().min(1).max(64);

export const ignoreRoutes: RoutePlugin = async (app, { config, db, auth }) => {
  app.get(
    '/api/ignore',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['ignore'],
        summary: "The viewer's ignored artists and tracks",
        response: { 200: ignoredListResponse, 401: errorBody },
      },
    },
    async (request) => {
      const viewer = signedInUser(request);
      return ignoredList(db, viewer, isAdminEmail(viewer.email, config.adminEmails));
    },
  );

  const targets = [
    { kind: 'track', path: '/api/ignore/track/:uid', params: z.object({ uid: key }) },
    { kind: 'artist', path: '/api/ignore/artist/:id', params: z.object({ id: key }) },
  ] as const;
  for (const { kind, path, params } of targets) {
    const schema = (summary: string) => ({
      tags: ['ignore'],
      summary,
      params,
      response: { 200: ignoreState, ...errors },
    });
    const actions = [
      ['post', path, ignore, `Ignores a ${kind}`],
      ['delete', path, unignore, `Stops ignoring a ${kind}`],
      ['post', `${path}/report`, report, `Asks the admins to ignore a ${kind} for everyone`],
    ] as const;
    for (const [method, url, action, summary] of actions) {
      app.route({
        method: method.toUpperCase() as 'POST' | 'DELETE',
        url,
        preHandler: auth.requireUser,
        schema: schema(summary),
        handler: (request) => {
          const [target] = Object.values(request.params as Record<string, string>);
          return action(db, signedInUser(request).id, kind, target!);
        },
      });
    }
  }
};
