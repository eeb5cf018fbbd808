import { errorBody } from '@earshot/contract/errors';
import {
  deviceList,
  nextTrack as nextTrackAnswer,
  playbackState,
  playerToken,
  playRequest,
  playResponse,
  transferRequest,
} from '@earshot/contract/playback';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { signedInUser } from '../../http/auth';
import {
  currentPlayback,
  listDevices,
  nextTrack,
  pause,
  playerAccessToken,
  playTrack,
  resume,
  skipToNext,
  transferPlayback,
  type Listener,
} from '../../services/playback';
import { tokenSourceFor } from '../../services/spotify-tokens';
import type { RoutePlugin } from '../context';

/**
 * The user's Spotify player (docs/product.md, Mini player and Play start). Every call acts on
 * the signed-in user's own player with their own token: nobody can drive another's. Failures on
 * Spotify's side are 4xx: 409 "No active device…" (the web player takes over), 402 Premium
 * required, 429 with Retry-After, 424 when Spotify does not answer.
 */
export const playbackRoutes: RoutePlugin = async (app, { db, cipher, auth, spotify, config }) => {
  const listener = (request: FastifyRequest): Listener => {
    const user = signedInUser(request);
    return { user, auth: tokenSourceFor(db, cipher, spotify, user.id) };
  };
  const failures = {
    400: errorBody,
    401: errorBody,
    402: errorBody,
    404: errorBody,
    409: errorBody,
    424: errorBody,
    429: errorBody,
  };
  // Authorization comes before the body is validated.
  const signedIn = { preValidation: auth.requireUser };

  app.post(
    '/api/spotify/play',
    {
      ...signedIn,
      schema: {
        tags: ['playback'],
        summary: "Starts a track on the user's active device and records the play",
        body: playRequest,
        response: { 200: playResponse, ...failures },
      },
    },
    async (request) =>
      playTrack(db, spotify, listener(request), request.body.track_id, request.body.context),
  );

  app.get(
    '/api/spotify/playback',
    {
      ...signedIn,
      schema: {
        tags: ['playback'],
        summary: 'What plays now and where (state null when nothing does)',
        response: { 200: playbackState, ...failures },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return currentPlayback(db, spotify, listener(request));
    },
  );

  const controls = [
    ['/api/spotify/pause', pause, 'Pauses playback'],
    ['/api/spotify/resume', resume, 'Resumes playback'],
    ['/api/spotify/next', skipToNext, 'Skips to the next track'],
  ] as const;
  for (const [url, run, summary] of controls) {
    app.post(
      url,
      {
        ...signedIn,
        schema: { tags: ['playback'], summary, response: { 204: z.null(), ...failures } },
      },
      async (request, reply) => {
        await run(db, spotify, listener(request));
        return reply.code(204).send(null);
      },
    );
  }

  app.get(
    '/api/spotify/next',
    {
      ...signedIn,
      schema: {
        tags: ['playback'],
        summary: 'The track that should follow the playing one',
        response: { 200: nextTrackAnswer, ...failures },
      },
    },
    async (request) => nextTrack(db, spotify, listener(request)),
  );

  app.get(
    '/api/spotify/token',
    {
      ...signedIn,
      config: { rateLimit: { max: 30 } },
      schema: {
        tags: ['playback'],
        summary: "The user's short-lived access token for the Web Playback SDK",
        response: { 200: playerToken, ...failures },
      },
    },
    async (request, reply) => {
      const { accessToken, expiresInSec } = await playerAccessToken(db, listener(request));
      reply.header('cache-control', 'no-store');
      return {
        access_token: accessToken,
        expires_in: expiresInSec,
        sdk_url: config.spotify.sdkUrl,
      };
    },
  );

  app.get(
    '/api/spotify/devices',
    {
      ...signedIn,
      schema: {
        tags: ['playback'],
        summary: "The user's Spotify Connect devices",
        response: { 200: deviceList, ...failures },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { devices: await listDevices(spotify, listener(request)) };
    },
  );

  app.post(
    '/api/spotify/transfer',
    {
      ...signedIn,
      schema: {
        tags: ['playback'],
        summary: 'Moves playback to another device',
        body: transferRequest,
        response: { 204: z.null(), ...failures },
      },
    },
    async (request, reply) => {
      const { device_id, play } = request.body;
      await transferPlayback(db, spotify, listener(request), device_id, play);
      return reply.code(204).send(null);
    },
  );
};
