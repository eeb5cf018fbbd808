import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock';
import type { FaultConfigInput } from '../src/faults/config';
import type { World } from '../src/world/model';
import { createWorld } from '../src/world/world';
import {
  buildSandbox,
  connect,
  DEVELOPMENT_CLIENT,
  FREE_ACCOUNT,
  PREMIUM_ACCOUNT,
  PUBLIC_CLIENT,
} from './helpers';

const MINUTE = 60_000;
const EVENING = Date.UTC(2026, 3, 14, 19, 30);
const PLAYER_SCOPES = 'user-read-playback-state user-modify-playback-state';

const world = createWorld();
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** The first minute from EVENING when neither account hears anything: no device is active. */
function idleInstant(w: World): number {
  for (let at = EVENING; at < EVENING + 7 * 24 * 60 * MINUTE; at += MINUTE) {
    if (!w.nowPlaying(PREMIUM_ACCOUNT, at) && !w.nowPlaying(FREE_ACCOUNT, at)) return at;
  }
  throw new Error('nobody ever stops listening');
}

async function player(clientId: string, account: string, faults?: FaultConfigInput) {
  const clock = new ManualClock(idleInstant(world));
  const app = await buildSandbox({
    clock,
    world,
    ...(faults && { faults }),
  });
  apps.push(app);
  const { access_token: token } = await connect(app, { clientId, account, scope: PLAYER_SCOPES });
  const send = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/sandbox/v1/me/player${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload && { payload }),
    });
  return { clock, send };
}

const someTrack = () => world.albums.find((album) => album.trackIds.length > 0)!.trackIds[0]!;

describe.each([
  ['extended', PUBLIC_CLIENT.id],
  ['development', DEVELOPMENT_CLIENT.id],
])('the player for an app in %s mode', (_mode, clientId) => {
  it('starts on a device, moves with the clock and pauses as Spotify does', async () => {
    const { clock, send } = await player(clientId, PREMIUM_ACCOUNT);
    expect((await send('GET', '')).statusCode).toBe(204);
    expect((await send('PUT', '/play', { uris: [`spotify:track:${someTrack()}`] })).json()).toEqual(
      {
        error: {
          status: 404,
          message: 'Player command failed: No active device found',
          reason: 'NO_ACTIVE_DEVICE',
        },
      },
    );

    const devices = (await send('GET', '/devices')).json<{ devices: { id: string }[] }>().devices;
    expect((await send('PUT', '', { device_ids: [devices[0]!.id], play: false })).statusCode).toBe(
      204,
    );
    const play = await send('PUT', '/play', { uris: [`spotify:track:${someTrack()}`] });
    expect(play.statusCode).toBe(204);
    clock.advance(30_000);
    const state = (await send('GET', '')).json<{
      is_playing: boolean;
      progress_ms: number;
      item: { id: string };
      device: { id: string; is_active: boolean };
    }>();
    expect(state).toMatchObject({
      is_playing: true,
      progress_ms: 30_000,
      item: { id: someTrack() },
      device: { id: devices[0]!.id, is_active: true },
    });

    // A 200 whose body is not JSON: clients must not parse it.
    const pause = await send('PUT', '/pause');
    expect([pause.statusCode, pause.body]).toEqual([200, '']);
  });

  it('refuses the commands of a free account with PREMIUM_REQUIRED', async () => {
    const { send } = await player(clientId, FREE_ACCOUNT);
    const devices = (await send('GET', '/devices')).json<{ devices: { id: string }[] }>().devices;
    const transfer = await send('PUT', '', { device_ids: [devices[0]!.id] });
    expect(transfer.statusCode).toBe(403);
    expect(transfer.json()).toMatchObject({ error: { status: 403, reason: 'PREMIUM_REQUIRED' } });
  });
});

describe('faults on the player', () => {
  it('rate-limits player endpoints with Retry-After, in the Web API format', async () => {
    const { send } = await player(PUBLIC_CLIENT.id, PREMIUM_ACCOUNT, {
      rules: [{ type: 'rate-limit', every: 1, retryAfterSec: 3, path: '/v1/me/player' }],
    });
    const response = await send('GET', '/devices');
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('3');
    expect(response.json()).toMatchObject({ error: { status: 429 } });
  });

  it('answers 5xx to player commands, then serves them again', async () => {
    const { send } = await player(PUBLIC_CLIENT.id, PREMIUM_ACCOUNT, {
      rules: [{ type: 'server-error', every: 2, statuses: [503], path: '/v1/me/player/devices' }],
    });
    expect((await send('GET', '/devices')).statusCode).toBe(200);
    const failed = await send('GET', '/devices');
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject({ error: { status: 503 } });
    expect((await send('GET', '/devices')).statusCode).toBe(200);
  });
});
