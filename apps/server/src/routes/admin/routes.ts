import {
  adminNotifications as adminNotificationsResponse,
  betaAccepted,
  betaEmail,
  moderationHistory as moderationHistoryResponse,
} from '@earshot/contract/admin';
import { errorBody } from '@earshot/contract/errors';
import { z } from 'zod';
import { signedInUser } from '../../http/auth';
import {
  acceptBeta,
  adminNotifications,
  decideReports,
  globalUnignore,
  moderationHistory,
} from '../../services/moderation';
import type { RoutePlugin } from '../context';

const denied = { 401: errorBody, 403: errorBody };
const key = z.string().min(1).max(64);

/**
 * The admins' work: reports, global ignores and beta access. Every route authorizes in
 * preValidation, so visitors get 401 and users 403 before their input is looked at.
 */
export const adminRoutes: RoutePlugin = async (app, { db, auth }) => {
  app.get(
    '/api/admin/notifications',
    {
      preValidation: auth.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Pending reports per song and per artist, and pending beta requests',
        response: { 200: adminNotificationsResponse, ...denied },
      },
    },
    async () => adminNotifications(db),
  );

  app.get(
    '/api/admin/history',
    {
      preValidation: auth.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: "The admins' latest decisions: who decided what, and when",
        response: { 200: moderationHistoryResponse, ...denied },
      },
    },
    async () => moderationHistory(db),
  );

  app.post(
    '/api/admin/notifications/beta/accept',
    {
      preValidation: auth.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Accepts an address for the beta (a pending request, or a direct invitation)',
        body: betaEmail,
        response: { 200: betaAccepted, 400: errorBody, ...denied },
      },
    },
    async (request) => {
      await acceptBeta(db, signedInUser(request).id, request.body.email);
      return { email: request.body.email, accepted: true as const };
    },
  );

  const targets = [
    { kind: 'track', path: '/api/admin/ignore/track/:uid', params: z.object({ uid: key }) },
    { kind: 'artist', path: '/api/admin/ignore/artist/:id', params: z.object({ id: key }) },
  ] as const;
  for (const { kind, path, params } of targets) {
    const schema = (summary: string) => ({
      tags: ['admin'],
      summary,
      params,
      response: { 204: z.null(), 400: errorBody, 404: errorBody, ...denied },
    });
    const targetOf = (request: { params: unknown }) =>
      Object.values(request.params as Record<string, string>)[0]!;
    for (const action of ['approve', 'reject'] as const) {
      app.post(
        `${path}/${action}`,
        {
          preValidation: auth.requireAdmin,
          schema: schema(
            action === 'approve'
              ? `Approves the reports of a ${kind}: ignored for everyone`
              : `Rejects the reports of a ${kind}`,
          ),
        },
        async (request, reply) => {
          await decideReports(db, signedInUser(request).id, kind, targetOf(request), action);
          return reply.code(204).send(null);
        },
      );
    }
    app.delete(
      path,
      {
        preValidation: auth.requireAdmin,
        schema: schema(`Ends the global ignore of a ${kind}`),
      },
      async (request, reply) => {
        await globalUnignore(db, signedInUser(request).id, kind, targetOf(request));
        return reply.code(204).send(null);
      },
    );
  }
};
