import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { queryParams } from '../http/form';
import { identifyCaller, type Caller } from '../web-api/caller';
import { sendApiError } from '../web-api/errors';
import type { PlayerServiceDeps } from './caller';
import { deviceObject } from './devices';
import { badRequest, PlayerError, premiumRequired, sendPlayerError } from './errors';
import { currentlyPlayingObject, playbackStateObject, queueObject } from './objects';
import type { RepeatState } from './playback';
import type { AccountPlayer } from './player';
import { parsePlayRequest, trackIdOf } from './requests';

const READ_STATE = 'user-read-playback-state';
const READ_CURRENTLY_PLAYING = 'user-read-currently-playing';
const MODIFY = 'user-modify-playback-state';

/**
 * Spotify parses player request bodies as JSON whatever their content type, and takes an empty
 * body (which many clients send with `Content-Type: application/json`) as no body.
 */
export function parseLenientJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('Error parsing json'), { statusCode: 400 }), undefined);
    }
  });
}

/** Who asks, and their account's player. */
interface PlayerCaller {
  caller: Caller;
  player: AccountPlayer;
}

/** The caller, if its token is good and carries every scope; otherwise the error is sent. */
function authorize(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PlayerServiceDeps,
  scopes: readonly string[],
): PlayerCaller | undefined {
  const found = identifyCaller(deps, request);
  if (!found.ok) {
    sendApiError(reply, found.status, found.message);
    return undefined;
  }
  const { caller } = found;
  if (!scopes.every((scope) => caller.hasScope(scope))) {
    sendApiError(reply, 403, 'Insufficient client scope');
    return undefined;
  }
  return { caller, player: deps.hub.of(caller.account) };
}

function deviceIdOf(params: URLSearchParams): string | undefined {
  return params.get('device_id') || undefined;
}

function nonNegativeInteger(params: URLSearchParams, name: string, max?: number): number {
  const value = params.get(name);
  if (value === null) throw badRequest(`Missing required field: ${name}`);
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || (max !== undefined && number > max)) {
    throw badRequest(`Invalid ${name}: ${value}`);
  }
  return number;
}

function oneOf<T extends string>(params: URLSearchParams, name: string, values: readonly T[]): T {
  const value = params.get(name);
  if (value === null) throw badRequest(`Missing required field: ${name}`);
  if (!(values as readonly string[]).includes(value)) throw badRequest(`Invalid ${name}: ${value}`);
  return value as T;
}

/**
 * How a successful command is answered. Spotify documents 204; `pause`, `next` and `seek` have
 * been seen answering 200 with a body that is not JSON, so the sandbox answers those with an empty
 * 200 labelled as JSON: clients must treat any 2xx as success without parsing it.
 */
type Success = 'no-content' | 'empty-200';

interface CommandInput extends PlayerCaller {
  now: number;
  params: URLSearchParams;
  deviceId: string | undefined;
  body: unknown;
}

/** The Player API (`/v1/me/player`), backed by the sandbox's player of each account. */
export function playerService(deps: PlayerServiceDeps): FastifyPluginAsync {
  return async (app) => {
    parseLenientJson(app);
    app.setErrorHandler<FastifyError | PlayerError>((error, request, reply) => {
      if (error instanceof PlayerError) return sendPlayerError(reply, error);
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'spotify-sandbox: player request failed');
        return sendApiError(reply, 500, 'Server error');
      }
      return sendApiError(reply, status, error.message);
    });

    const command = (
      method: 'PUT' | 'POST',
      url: string,
      run: (input: CommandInput) => void,
      success: Success = 'no-content',
    ) =>
      app.route({
        method,
        url,
        handler: async (request, reply) => {
          const found = authorize(request, reply, deps, [MODIFY]);
          if (!found) return reply;
          if (!found.player.isPremium) throw premiumRequired();
          const params = queryParams(request.url);
          const { now } = found.caller;
          run({ ...found, now, params, deviceId: deviceIdOf(params), body: request.body });
          if (success === 'empty-200') {
            return reply
              .code(200)
              .header('content-type', 'application/json; charset=utf-8')
              .send('');
          }
          return reply.code(204).send();
        },
      });

    app.get('/', async (request, reply) => {
      const found = authorize(request, reply, deps, [READ_STATE]);
      if (!found) return reply;
      const snapshot = found.player.snapshot(found.caller.now);
      if (!snapshot) return reply.code(204).send();
      return playbackStateObject(snapshot, found.caller.objects);
    });

    app.get('/devices', async (request, reply) => {
      const found = authorize(request, reply, deps, [READ_STATE]);
      if (!found) return reply;
      const devices = found.player.devices(found.caller.now);
      return { devices: devices.map(({ device, isActive }) => deviceObject(device, isActive)) };
    });

    app.get('/currently-playing', async (request, reply) => {
      const found = authorize(request, reply, deps, [READ_CURRENTLY_PLAYING]);
      if (!found) return reply;
      const snapshot = found.player.snapshot(found.caller.now);
      if (!snapshot) return reply.code(204).send();
      return currentlyPlayingObject(snapshot, found.caller.objects);
    });

    app.get('/queue', async (request, reply) => {
      const found = authorize(request, reply, deps, [READ_CURRENTLY_PLAYING, READ_STATE]);
      if (!found) return reply;
      return queueObject(found.player.queue(found.caller.now), found.caller.objects);
    });

    command('PUT', '/', ({ player, now, body }) => {
      const deviceIds = (body as { device_ids?: unknown } | undefined)?.device_ids;
      const play = (body as { play?: unknown } | undefined)?.play;
      if (!Array.isArray(deviceIds) || deviceIds.length === 0) {
        throw badRequest('Missing required field: device_ids');
      }
      if (deviceIds.length > 1) throw badRequest('Only one device_id is currently supported');
      if (typeof deviceIds[0] !== 'string' || (play !== undefined && typeof play !== 'boolean')) {
        throw badRequest('Invalid request body');
      }
      player.transfer(now, deviceIds[0], play);
    });

    command('PUT', '/play', ({ player, now, deviceId, body }) => {
      player.play(now, deviceId, parsePlayRequest(body, deps.world, now));
    });

    command(
      'PUT',
      '/pause',
      ({ player, now, deviceId }) => player.pause(now, deviceId),
      'empty-200',
    );

    command(
      'POST',
      '/next',
      ({ player, now, deviceId }) => player.next(now, deviceId),
      'empty-200',
    );

    command('POST', '/previous', ({ player, now, deviceId }) => player.previous(now, deviceId));

    command(
      'PUT',
      '/seek',
      ({ player, now, deviceId, params }) =>
        player.seek(now, deviceId, nonNegativeInteger(params, 'position_ms')),
      'empty-200',
    );

    command('PUT', '/shuffle', ({ player, now, deviceId, params }) => {
      const state = oneOf(params, 'state', ['true', 'false'] as const);
      player.setShuffle(now, deviceId, state === 'true');
    });

    command('PUT', '/repeat', ({ player, now, deviceId, params }) => {
      const state = oneOf<RepeatState>(params, 'state', ['track', 'context', 'off']);
      player.setRepeat(now, deviceId, state);
    });

    command('PUT', '/volume', ({ player, now, deviceId, params }) => {
      player.setVolume(now, deviceId, nonNegativeInteger(params, 'volume_percent', 100));
    });

    command('POST', '/queue', ({ player, now, deviceId, params }) => {
      const uri = params.get('uri');
      if (uri === null) throw badRequest('Missing required field: uri');
      player.enqueue(now, deviceId, trackIdOf(uri, deps.world));
    });
  };
}
