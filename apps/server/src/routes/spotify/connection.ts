import { errorBody } from '@earshot/contract/errors';
import {
  authorizationResponse,
  authorizeQuery,
  oauthCallbackQuery,
  resolveReturnPath,
  streamingStats,
} from '@earshot/contract/spotify';
import { signedInUser } from '../../http/auth';
import { admitsInviteOnly } from '../../services/beta';
import {
  LOGIN_ATTEMPT_TTL_MS,
  LOGIN_STATE_COOKIE,
  LoginError,
  NotInvitedError,
  completeLogin,
  startLogin,
  type Admission,
} from '../../services/login';
import { syncSoon } from '../../services/spotify-accounts';
import { createSession } from '../../services/sessions';
import { spotifyConnectionActive } from '../../services/spotify-accounts';
import type { RoutePlugin } from '../context';

/**
 * Adds `spotify=connected` to a return path, keeping its own query and fragment. The path is
 * resolved again as the browser will: anything leading off the site returns home instead.
 */
function withConnectedFlag(returnTo: string): string {
  const url = new URL(resolveReturnPath(returnTo) ?? '/', 'http://earshot.invalid');
  url.searchParams.set('spotify', 'connected');
  return `${url.pathname}${url.search}${url.hash}`;
}

export const spotifyConnectionRoutes: RoutePlugin = async (
  app,
  { config, db, cipher, auth, spotify },
) => {
  // Sent back only to the callback; Lax: Spotify's redirect to it is a top-level navigation.
  const loginCookie = {
    path: '/api/spotify/callback',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.secureCookies,
  };

  app.get(
    '/api/spotify/authorize',
    {
      config: { rateLimit: { max: 30 } },
      schema: {
        tags: ['spotify'],
        summary: "Spotify's authorization URL for a login that returns to `next`",
        querystring: authorizeQuery,
        response: { 200: authorizationResponse, 400: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const { state, url } = await startLogin(db, spotify.config, request.query.next);
      reply.setCookie(LOGIN_STATE_COOKIE, state, {
        ...loginCookie,
        maxAge: LOGIN_ATTEMPT_TTL_MS / 1000,
      });
      return { authorization_url: url };
    },
  );

  app.get(
    '/api/spotify/callback',
    {
      config: { rateLimit: { max: 30 } },
      schema: {
        tags: ['spotify'],
        summary: "Spotify's OAuth redirect: logs in and sends the browser back to `next`",
        querystring: oauthCallbackQuery,
      },
    },
    async (request, reply) => {
      const browserState = request.cookies[LOGIN_STATE_COOKIE];
      reply.clearCookie(LOGIN_STATE_COOKIE, loginCookie);
      try {
        const admission: Admission | undefined = config.betaInviteOnly
          ? (profile) => admitsInviteOnly(db, profile, config.adminEmails)
          : undefined;
        const { user, returnTo } = await completeLogin(
          db,
          spotify,
          cipher,
          request.query,
          browserState,
          admission,
        );
        auth.setSessionCookie(reply, await createSession(db, user.id));
        await syncSoon(db, user.id);
        return reply.redirect(withConnectedFlag(returnTo), 303);
      } catch (error) {
        if (error instanceof NotInvitedError) {
          return reply.redirect('/spotify/beta?invite=required', 303);
        }
        if (!(error instanceof LoginError)) request.log.error({ err: error }, 'login failed');
        const message =
          error instanceof LoginError ? error.message : 'Login failed. Please try again.';
        const query = new URLSearchParams({ type: 'api', message });
        return reply.redirect(`/error?${query.toString()}`, 303);
      }
    },
  );

  app.get(
    '/api/spotify/stats',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['spotify'],
        summary: "Whether the user's Spotify connection works",
        response: { 200: streamingStats, 401: errorBody },
      },
    },
    async (request) => ({
      active: await spotifyConnectionActive(db, signedInUser(request).id),
    }),
  );
};
