import { errorBody } from '@earshot/contract/errors';
import { ignoredList as ignoredListResponse, ignoreState } from '@earshot/contract/ignore';
import { z } from 'zod';
import { signedInUser } from '../http/auth';
import { ignore, ignoredList, report, unignore } from '../services/ignore';
import { isAdminEmail } from '../services/users';
import type { RoutePlugin } from './context';

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

  const trackParams = z.object({ uid: key });
  const artistParams = z.object({ id: key });
  const actions = [
    {
      method: 'POST',
      url: '/api/ignore/track/:uid',
      kind: 'track',
      params: trackParams,
      action: ignore,
      summary: 'Ignores a track',
    },
    {
      method: 'DELETE',
      url: '/api/ignore/track/:uid',
      kind: 'track',
      params: trackParams,
      action: unignore,
      summary: 'Stops ignoring a track',
    },
    {
      method: 'POST',
      url: '/api/ignore/track/:uid/report',
      kind: 'track',
      params: trackParams,
      action: report,
      summary: 'Asks the admins to ignore a track for everyone',
    },
    {
      method: 'POST',
      url: '/api/ignore/artist/:id',
      kind: 'artist',
      params: artistParams,
      action: ignore,
      summary: 'Ignores an artist',
    },
    {
      method: 'DELETE',
      url: '/api/ignore/artist/:id',
      kind: 'artist',
      params: artistParams,
      action: unignore,
      summary: 'Stops ignoring an artist',
    },
    {
      method: 'POST',
      url: '/api/ignore/artist/:id/report',
      kind: 'artist',
      params: artistParams,
      action: report,
      summary: 'Asks the admins to ignore an artist for everyone',
    },
  ] as const;
  for (const { method, url, kind, params, action, summary } of actions) {
    app.route({
      method,
      url,
      preHandler: auth.requireUser,
      schema: { tags: ['ignore'], summary, params, response: { 200: ignoreState, ...errors } },
      handler: (request) => {
        const [target] = Object.values(request.params as Record<string, string>);
        return action(db, signedInUser(request).id, kind, target!);
      },
    });
  }
};
