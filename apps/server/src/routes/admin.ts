import {
  adminNotifications as adminNotificationsResponse,
  betaAccepted,
  betaEmail,
  moderationHistory as moderationHistoryResponse,
} from '@earshot/contract/admin';
import { errorBody } from '@earshot/contract/errors';
import { z } from 'zod';
import { signedInUser } from '../http/auth';
import {
  acceptBeta,
  adminNotifications,
  decideReports,
  globalUnignore,
  moderationHistory,
} from '../services/moderation';
import type { RoutePlugin } from './context';

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

  const trackParams = z.object({ uid: key });
  const artistParams = z.object({ id: key });
  const response = { 204: z.null(), 400: errorBody, 404: errorBody, ...denied };
  const targetOf = (request: { params: unknown }) =>
    Object.values(request.params as Record<string, string>)[0]!;
  const decisions = [
    {
      url: '/api/admin/ignore/track/:uid/approve',
      kind: 'track',
      params: trackParams,
      decision: 'approve',
      summary: 'Approves the reports of a track: ignored for everyone',
    },
    {
      url: '/api/admin/ignore/track/:uid/reject',
      kind: 'track',
      params: trackParams,
      decision: 'reject',
      summary: 'Rejects the reports of a track',
    },
    {
      url: '/api/admin/ignore/artist/:id/approve',
      kind: 'artist',
      params: artistParams,
      decision: 'approve',
      summary: 'Approves the reports of an artist: ignored for everyone',
    },
    {
      url: '/api/admin/ignore/artist/:id/reject',
      kind: 'artist',
      params: artistParams,
      decision: 'reject',
      summary: 'Rejects the reports of an artist',
    },
  ] as const;
  for (const { url, kind, params, decision, summary } of decisions) {
    app.post(
      url,
      { preValidation: auth.requireAdmin, schema: { tags: ['admin'], summary, params, response } },
      async (request, reply) => {
        await decideReports(db, signedInUser(request).id, kind, targetOf(request), decision);
        return reply.code(204).send(null);
      },
    );
  }
  const globalIgnores = [
    {
      url: '/api/admin/ignore/track/:uid',
      kind: 'track',
      params: trackParams,
      summary: 'Ends the global ignore of a track',
    },
    {
      url: '/api/admin/ignore/artist/:id',
      kind: 'artist',
      params: artistParams,
      summary: 'Ends the global ignore of an artist',
    },
  ] as const;
  for (const { url, kind, params, summary } of globalIgnores) {
    app.delete(
      url,
      { preValidation: auth.requireAdmin, schema: { tags: ['admin'], summary, params, response } },
      async (request, reply) => {
        await globalUnignore(db, signedInUser(request).id, kind, targetOf(request));
        return reply.code(204).send(null);
      },
    );
  }
};
