import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/clock';
import { WEB_DEVICE_TIMEOUT_MS } from '../src/player/player';
import type { World } from '../src/world/model';
import { createWorld } from '../src/world/world';
import { buildSandbox, connect, FREE_ACCOUNT, PREMIUM_ACCOUNT, SDK_SCOPES } from './helpers';

const EVENING = Date.UTC(2026, 3, 14, 19, 30);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const apps: FastifyInstance[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** An instant the simulated person hears nothing, so no device is active. */
function idleInstant(world: World): number {
  let at = EVENING;
  while (world.nowPlaying(PREMIUM_ACCOUNT, at)) at += 60_000;
  return at;
}

async function sandbox() {
  const world = createWorld();
  const clock = new ManualClock(idleInstant(world));
  const app = await buildSandbox({ clock, world });
  apps.push(app);
  const tokenOf = async (account = PREMIUM_ACCOUNT, scope = SDK_SCOPES) =>
    (await connect(app, { account, scope })).access_token;
  const token = await tokenOf();
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    bearer = token,
  ) =>
    app.inject({
      method,
      url: `/sandbox${url}`,
      headers: { authorization: `Bearer ${bearer}` },
      ...(payload !== undefined && { payload }),
    });
  const register = async (name = 'Earshot Web Player', volume = 0.5) => {
    const response = await call('POST', '/sdk/devices', { name, volume });
    expect(response.statusCode).toBe(201);
    return response.json<{ device_id: string }>().device_id;
  };
  const devices = async (): Promise<Json[]> =>
    (await call('GET', '/v1/me/player/devices')).json<{ devices: Json[] }>().devices;
  return { world, clock, app, tokenOf, call, register, devices };
}

describe('the SDK stand-in: serving the script', () => {
  it('serves plain JavaScript with cache headers, an ETag and CORS', async () => {
    const { app } = await sandbox();

    const response = await app.inject({ method: 'GET', url: '/sandbox/sdk/spotify-player.js' });

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': '*',
    });
    expect(response.body).toContain('onSpotifyWebPlaybackSDKReady');
    expect(response.body).toContain('"http://sandbox.test/sandbox"');
    // Nothing a `script-src 'self'` policy forbids.
    expect(response.body).not.toMatch(/\beval\(|new Function|setTimeout\(['"`]|\.on[a-z]+\s*=/);

    const again = await app.inject({
      method: 'GET',
      url: '/sandbox/sdk/spotify-player.js',
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers CORS preflights for its endpoints', async () => {
    const { app } = await sandbox();

    const response = await app.inject({
      method: 'OPTIONS',
      url: '/sandbox/sdk/devices',
      headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' },
    });

    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type');
  });
});

describe('the SDK stand-in: web players', () => {
  it('registers a web player as a device of the account', async () => {
    const { register, devices, call } = await sandbox();

    const id = await register();

    expect(id).toMatch(/^[0-9a-f]{40}$/);
    expect((await devices()).at(-1)).toEqual({
      id,
      is_active: false,
      is_private_session: false,
      is_restricted: false,
      name: 'Earshot Web Player',
      supports_volume: true,
      type: 'Computer',
      volume_percent: 50,
    });
    const state = await call('GET', `/sdk/devices/${id}/state`);
    expect(state.json()).toMatchObject({ state: null, volume: 0.5 });
    expect(state.headers['cache-control']).toBe('no-store');
  });

  it('reports the WebPlaybackState once the Web API plays on it', async () => {
    const { world, clock, register, call } = await sandbox();
    const id = await register();
    const before = (await call('GET', `/sdk/devices/${id}/state`)).json();
    const album = world.albums.find((each) => each.trackIds.length >= 4);
    if (!album) throw new Error('no album');

    const play = await call('PUT', `/v1/me/player/play?device_id=${id}`, {
      context_uri: `spotify:album:${album.id}`,
      offset: { position: 1 },
    });
    expect(play.statusCode).toBe(204);
    clock.advance(3000);

    const { state, revision } = (await call('GET', `/sdk/devices/${id}/state`)).json();
    expect(revision).not.toBe(before.revision);
    expect(state).toMatchObject({
      paused: false,
      position: 3000,
      loading: false,
      shuffle: false,
      repeat_mode: 0,
      timestamp: clock.now(),
      duration: world.track(album.trackIds[1] ?? '')?.durationMs,
      context: { uri: `spotify:album:${album.id}`, metadata: { name: album.name } },
      track_window: {
        current_track: {
          id: album.trackIds[1],
          uri: `spotify:track:${album.trackIds[1]}`,
          type: 'track',
          media_type: 'audio',
          album: { uri: `spotify:album:${album.id}`, name: album.name },
        },
      },
    });
    const ids = (tracks: Json[]) => tracks.map((track) => track.id);
    expect(ids(state.track_window.previous_tracks)).toEqual(album.trackIds.slice(0, 1));
    expect(ids(state.track_window.next_tracks)).toEqual(album.trackIds.slice(2, 4));
  });

  it("carries the SDK's own controls to the player when it is the active device", async () => {
    const { world, clock, register, call } = await sandbox();
    const id = await register();
    const other = await register('Another tab');
    const trackIds = world.albums.find((each) => each.trackIds.length >= 2)?.trackIds ?? [];
    await call('PUT', `/v1/me/player/play?device_id=${id}`, {
      uris: trackIds.map((trackId) => `spotify:track:${trackId}`),
    });
    const isPlaying = async () => (await call('GET', '/v1/me/player')).json().is_playing;

    expect(
      (await call('PUT', `/sdk/devices/${other}/playback`, { action: 'pause' })).statusCode,
    ).toBe(204);
    expect(await isPlaying()).toBe(true);

    await call('PUT', `/sdk/devices/${id}/playback`, { action: 'pause' });
    expect(await isPlaying()).toBe(false);
    await call('PUT', `/sdk/devices/${id}/playback`, { action: 'toggle' });
    expect(await isPlaying()).toBe(true);
    await call('PUT', `/sdk/devices/${id}/playback`, { action: 'seek', position_ms: 42_000 });
    clock.advance(1000);
    expect((await call('GET', '/v1/me/player')).json().progress_ms).toBe(43_000);
    await call('PUT', `/sdk/devices/${id}/playback`, { action: 'next' });
    expect((await call('GET', '/v1/me/player')).json().item.id).toBe(trackIds[1]);

    const bad = await call('PUT', `/sdk/devices/${id}/playback`, { action: 'dance' });
    expect(bad.statusCode).toBe(400);
  });

  it('renames the device and sets its volume', async () => {
    const { register, call, devices } = await sandbox();
    const id = await register();

    const response = await call('PUT', `/sdk/devices/${id}`, {
      name: 'Living room tab',
      volume: 0.8,
    });

    expect(response.statusCode).toBe(204);
    expect((await devices()).at(-1)).toMatchObject({ name: 'Living room tab', volume_percent: 80 });
  });

  it('removes the device on disconnect; playback on it stops with no device active', async () => {
    const { world, register, call, devices } = await sandbox();
    const id = await register();
    const trackId = world.tracks[0]?.id;
    await call('PUT', `/v1/me/player/play?device_id=${id}`, { uris: [`spotify:track:${trackId}`] });

    expect((await call('DELETE', `/sdk/devices/${id}`)).statusCode).toBe(204);

    expect((await devices()).map((device) => device.id)).not.toContain(id);
    expect((await call('GET', '/v1/me/player')).statusCode).toBe(204);
    expect((await call('GET', `/sdk/devices/${id}/state`)).statusCode).toBe(404);
    expect((await call('DELETE', `/sdk/devices/${id}`)).statusCode).toBe(404);
    const computer = (await devices()).find((device) => device.type === 'Computer');
    await call('PUT', `/v1/me/player/play?device_id=${computer.id}`);
    expect((await call('GET', '/v1/me/player')).json()).toMatchObject({
      is_playing: true,
      item: { id: trackId },
    });
  });

  it('forgets a web player whose page stopped polling', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { register, call, devices } = await sandbox();
    const id = await register();

    vi.setSystemTime(Date.now() + WEB_DEVICE_TIMEOUT_MS - 1000);
    expect((await call('GET', `/sdk/devices/${id}/state`)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + WEB_DEVICE_TIMEOUT_MS - 1000);
    expect((await devices()).map((device) => device.id)).toContain(id);
    vi.setSystemTime(Date.now() + WEB_DEVICE_TIMEOUT_MS + 1000);

    expect((await devices()).map((device) => device.id)).not.toContain(id);
  });

  it('refuses bad tokens, tokens without streaming, and free accounts', async () => {
    const { call, tokenOf } = await sandbox();
    const body = { name: 'Player' };

    expect((await call('POST', '/sdk/devices', body, 'nope')).json()).toEqual({
      error: { status: 401, message: 'Invalid access token' },
    });
    const noStreaming = await tokenOf(PREMIUM_ACCOUNT, 'user-read-email');
    expect((await call('POST', '/sdk/devices', body, noStreaming)).json()).toEqual({
      error: { status: 403, message: 'Insufficient client scope' },
    });
    const free = await tokenOf(FREE_ACCOUNT);
    expect((await call('POST', '/sdk/devices', body, free)).json()).toEqual({
      error: {
        status: 403,
        message: 'Player command failed: Premium required',
        reason: 'PREMIUM_REQUIRED',
      },
    });
    expect((await call('POST', '/sdk/devices', { name: '' })).statusCode).toBe(400);
    expect((await call('GET', `/sdk/devices/${'0'.repeat(40)}/state`)).statusCode).toBe(404);
  });

  it("does not let one account reach another account's web player", async () => {
    const { register, call, tokenOf } = await sandbox();
    const id = await register();
    const other = await tokenOf('chidiokafor');

    expect((await call('GET', `/sdk/devices/${id}/state`, undefined, other)).statusCode).toBe(404);
    expect((await call('DELETE', `/sdk/devices/${id}`, undefined, other)).statusCode).toBe(404);
  });
});
