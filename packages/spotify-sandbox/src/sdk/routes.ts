import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PlayerServiceDeps } from '../player/caller';
import type { WebDevice } from '../player/devices';
import { premiumRequired, sendPlayerError } from '../player/errors';
import type { AccountPlayer } from '../player/player';
import { parseLenientJson } from '../player/routes';
import { identifyCaller } from '../web-api/caller';
import { sendApiError } from '../web-api/errors';
import { playerScript } from './bundle';
import { webPlaybackState } from './state';

/** The scope the real SDK needs (with `user-read-email` and `user-read-private` for its own use). */
const STREAMING = 'streaming';

const newDevice = z.looseObject({
  name: z.string().trim().min(1).max(128),
  volume: z.number().min(0).max(1).optional(),
});

const deviceChange = z.looseObject({
  name: z.string().trim().min(1).max(128).optional(),
  volume: z.number().min(0).max(1).optional(),
});

const playbackCommand = z.discriminatedUnion('action', [
  z.looseObject({ action: z.enum(['pause', 'resume', 'toggle', 'next', 'previous']) }),
  z.looseObject({ action: z.literal('seek'), position_ms: z.number().int().min(0) }),
]);

const toPercent = (volume: number) => Math.round(volume * 100);

/**
 * The Web Playback SDK stand-in: its script (`/sdk/spotify-player.js`) and the endpoints it talks
 * to. `POST /sdk/devices` registers a web player of the token's account (`{device_id}`); the page
 * then polls `GET /sdk/devices/:id/state` every second, which keeps the device alive and returns
 * `{state, revision, volume}` (`state` is the SDK's WebPlaybackState while the device is the
 * active one, else null; `revision` changes whenever the state does). `PUT /sdk/devices/:id`
 * renames it or sets its volume, `PUT /sdk/devices/:id/playback` carries the SDK's own controls,
 * and `DELETE /sdk/devices/:id` disconnects it. Errors are the Web API's.
 */
export function sdkService(deps: PlayerServiceDeps): FastifyPluginAsync {
  const now = () => deps.clock.now();

  /**
   * The caller's player if the token is good, carries `streaming` and belongs to a premium
   * account; otherwise the error is sent.
   */
  function authorize(request: FastifyRequest, reply: FastifyReply): AccountPlayer | undefined {
    const found = identifyCaller(deps, request);
    if (!found.ok) {
      sendApiError(reply, found.status, found.message);
      return undefined;
    }
    if (!found.caller.hasScope(STREAMING)) {
      sendApiError(reply, 403, 'Insufficient client scope');
      return undefined;
    }
    const player = deps.hub.of(found.caller.account);
    if (!player.isPremium) {
      sendPlayerError(reply, premiumRequired());
      return undefined;
    }
    return player;
  }

  /** The caller's web player named in the path, kept alive by the request; else 404 is sent. */
  function webDevice(
    player: AccountPlayer,
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
  ): WebDevice | undefined {
    const device = player.touchWebDevice(now(), request.params.id);
    if (!device) sendApiError(reply, 404, 'Device not found');
    return device;
  }

  function parse<T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply): T | undefined {
    const result = schema.safeParse(body ?? {});
    if (result.success) return result.data;
    sendApiError(reply, 400, `Invalid request body: ${z.prettifyError(result.error)}`);
    return undefined;
  }

  return async (app) => {
    const script = await playerScript(deps.publicUrl);
    parseLenientJson(app);
    app.setErrorHandler<FastifyError>((error, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'spotify-sandbox: SDK request failed');
        return sendApiError(reply, 500, 'Server error');
      }
      return sendApiError(reply, status, error.message);
    });

    // The page that loads the SDK may live on another origin than a standalone sandbox. Requests
    // carry bearer tokens, never cookies, so any origin may make them.
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('access-control-allow-origin', '*');
    });
    app.options('/*', async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST, PUT, DELETE')
        .header('access-control-allow-headers', 'authorization, content-type')
        .header('access-control-max-age', '600')
        .send(),
    );

    app.get('/spotify-player.js', async (request, reply) => {
      reply
        .header('cache-control', 'public, max-age=3600')
        .header('etag', script.etag)
        .header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === script.etag) return reply.code(304).send();
      return reply.type('text/javascript; charset=utf-8').send(script.source);
    });

    app.post('/devices', async (request, reply) => {
      const player = authorize(request, reply);
      if (!player) return reply;
      const body = parse(newDevice, request.body, reply);
      if (!body) return reply;
      const volumePercent = toPercent(body.volume ?? 1);
      const device = player.registerWebDevice(now(), body.name, volumePercent);
      return reply.code(201).send({ device_id: device.id });
    });

    app.get<{ Params: { id: string } }>('/devices/:id/state', async (request, reply) => {
      const player = authorize(request, reply);
      if (!player) return reply;
      const device = webDevice(player, request, reply);
      if (!device) return reply;
      const at = now();
      const snapshot = player.snapshot(at);
      const active = snapshot?.device.id === device.id ? snapshot : null;
      reply.header('cache-control', 'no-store');
      return {
        state: active && webPlaybackState(active, deps.world, deps.publicUrl, at),
        revision: player.revision,
        volume: device.volumePercent / 100,
      };
    });

    app.put<{ Params: { id: string } }>('/devices/:id', async (request, reply) => {
      const player = authorize(request, reply);
      if (!player) return reply;
      const device = webDevice(player, request, reply);
      const body = device && parse(deviceChange, request.body, reply);
      if (!device || !body) return reply;
      const volumePercent = body.volume === undefined ? undefined : toPercent(body.volume);
      player.updateWebDevice(device, { name: body.name, volumePercent });
      return reply.code(204).send();
    });

    app.put<{ Params: { id: string } }>('/devices/:id/playback', async (request, reply) => {
      const player = authorize(request, reply);
      if (!player) return reply;
      const device = webDevice(player, request, reply);
      const body = device && parse(playbackCommand, request.body, reply);
      if (!device || !body) return reply;
      const positionMs = body.action === 'seek' ? body.position_ms : undefined;
      player.webCommand(now(), device.id, body.action, positionMs);
      return reply.code(204).send();
    });

    app.delete<{ Params: { id: string } }>('/devices/:id', async (request, reply) => {
      const player = authorize(request, reply);
      if (!player) return reply;
      if (!player.removeWebDevice(now(), request.params.id)) {
        return sendApiError(reply, 404, 'Device not found');
      }
      return reply.code(204).send();
    });
  };
}
