import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock';
import type { World } from '../src/world/model';
import { createWorld } from '../src/world/world';
import {
  buildSandbox,
  connect,
  DEVELOPMENT_CLIENT,
  PREMIUM_ACCOUNT,
  PUBLIC_CLIENT,
} from './helpers';
import { SpotifyDescriptions, type Mode } from './support/openapi';

const SCOPES = [
  'user-read-playback-state',
  'user-modify-playback-state',
  'user-read-currently-playing',
].join(' ');
const EVENING = Date.UTC(2026, 3, 14, 19, 30);

let descriptions: SpotifyDescriptions;
beforeAll(async () => {
  descriptions = await SpotifyDescriptions.load();
});

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function instant(world: World, listening: boolean): number {
  let at = EVENING;
  while ((world.nowPlaying(PREMIUM_ACCOUNT, at) !== null) !== listening) at += 60_000;
  return at;
}

async function user(mode: Mode, start: (world: World) => number) {
  const world = createWorld();
  const app = await buildSandbox({ clock: new ManualClock(start(world)), world });
  apps.push(app);
  const clientId = mode === 'extended' ? PUBLIC_CLIENT.id : DEVELOPMENT_CLIENT.id;
  const { access_token: token } = await connect(app, { clientId, scope: SCOPES });
  const call = (method: 'GET' | 'PUT', path: string, payload?: object) =>
    app.inject({
      method,
      url: `/sandbox/v1${path}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload !== undefined && { payload }),
    });
  /** GETs a player endpoint and returns what the description of the mode finds wrong with it. */
  const check = async (path: string, status: number) => {
    const response = await call('GET', path);
    expect(response.statusCode).toBe(status);
    return descriptions.validate(mode, {
      method: 'GET',
      path,
      statusCode: response.statusCode,
      contentType: String(response.headers['content-type']),
      body: response.body,
    }).errors;
  };
  return { world, call, check };
}

const READS = ['/me/player', '/me/player/currently-playing', '/me/player/devices'];

describe.each(['extended', 'development'] as const)('player responses (%s mode)', (mode) => {
  it('match the description while the simulated person listens', async () => {
    const { check } = await user(mode, (world) => instant(world, true));

    for (const path of [...READS, '/me/player/queue']) expect(await check(path, 200)).toEqual([]);
  });

  it('match the description for real playback of a context, and with nothing playing', async () => {
    const { world, call, check } = await user(mode, (w) => instant(w, false));
    expect(await check('/me/player', 204)).toEqual([]);
    // Spotify answers 204 here too when nothing plays, which the descriptions leave out.
    expect((await call('GET', '/me/player/currently-playing')).statusCode).toBe(204);
    const album = world.albums.find((each) => each.trackIds.length >= 3);
    const { devices } = (await call('GET', '/me/player/devices')).json<{
      devices: { id: string }[];
    }>();

    await call('PUT', `/me/player/play?device_id=${devices[1]?.id}`, {
      context_uri: `spotify:album:${album?.id}`,
    });

    for (const path of [...READS, '/me/player/queue']) expect(await check(path, 200)).toEqual([]);
  });
});
