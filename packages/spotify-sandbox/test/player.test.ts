import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock';
import type { Album, World } from '../src/world/model';
import { createWorld } from '../src/world/world';
import { buildSandbox, connect, FREE_ACCOUNT, PREMIUM_ACCOUNT, PUBLIC_URL } from './helpers';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const PLAYER_SCOPES = [
  'user-read-playback-state',
  'user-modify-playback-state',
  'user-read-currently-playing',
  'user-read-recently-played',
].join(' ');
/** An evening in the world's 2026. */
const EVENING = Date.UTC(2026, 3, 14, 19, 30);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** The first instant from `from` (minute by minute) the simulated person is hearing nothing. */
function idleInstant(world: World, accountId: string, from = EVENING): number {
  for (let at = from; at < from + 7 * 24 * 60 * MINUTE; at += MINUTE) {
    if (!world.nowPlaying(accountId, at)) return at;
  }
  throw new Error('the simulated person never stops listening');
}

/** The first instant the simulated person is well into a track, with more than a minute to go. */
function listeningInstant(world: World, accountId: string, from = EVENING): number {
  for (let at = from; at < from + 7 * 24 * 60 * MINUTE; at += MINUTE) {
    const now = world.nowPlaying(accountId, at);
    if (now && now.progressMs > 40 * SECOND && now.track.durationMs - now.progressMs > MINUTE) {
      return at;
    }
  }
  throw new Error('the simulated person never listens');
}

/** An album of at least `count` tracks (and at most 8), shorter than 40 minutes. */
function albumWithTracks(world: World, count: number): Album {
  const album = world.albums.find((each) => {
    if (each.trackIds.length < count || each.trackIds.length > 8) return false;
    const total = each.trackIds.reduce((sum, id) => sum + (world.track(id)?.durationMs ?? 0), 0);
    return total < 40 * MINUTE;
  });
  if (!album) throw new Error(`no album with ${count} tracks`);
  return album;
}

class Listener {
  constructor(
    readonly app: FastifyInstance,
    readonly token: string,
  ) {}

  send(
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: object | string,
  ): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method,
      url: `/sandbox/v1/me/player${url}`,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(typeof payload === 'object' && { 'content-type': 'application/json' }),
      },
      ...(payload !== undefined && { payload }),
    });
  }

  async state(): Promise<Json> {
    const response = await this.send('GET', '');
    return response.statusCode === 204 ? null : response.json();
  }

  async devices(): Promise<Json[]> {
    return (await this.send('GET', '/devices')).json<{ devices: Json[] }>().devices;
  }

  async deviceId(type: 'Smartphone' | 'Computer' | 'Speaker'): Promise<string> {
    const device = (await this.devices()).find((each) => each.type === type);
    return device.id;
  }

  async recentlyPlayed(): Promise<Json[]> {
    const response = await this.app.inject({
      method: 'GET',
      url: '/sandbox/v1/me/player/recently-played?limit=50',
      headers: { authorization: `Bearer ${this.token}` },
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ items: Json[] }>().items;
  }
}

async function sandbox(start: (world: World) => number, account = PREMIUM_ACCOUNT) {
  const world = createWorld();
  const clock = new ManualClock(start(world));
  // Tokens that outlive the days some tests move the clock by.
  const app = await buildSandbox({ clock, world, accessTokenTtlSec: 30 * 24 * 3600 });
  apps.push(app);
  const { access_token: token } = await connect(app, { account, scope: PLAYER_SCOPES });
  return { world, clock, app, listener: new Listener(app, token) };
}

/** Starts an album on the account's computer and returns its tracks. */
async function playAlbum(listener: Listener, album: Album, offset = 0) {
  const computer = await listener.deviceId('Computer');
  const response = await listener.send('PUT', `/play?device_id=${computer}`, {
    context_uri: `spotify:album:${album.id}`,
    offset: { position: offset },
  });
  expect(response.statusCode).toBe(204);
  return computer;
}

describe('the simulated person on the player', () => {
  it('shows what the simulated person is hearing, on the device they hear it on', async () => {
    const { world, clock, listener } = await sandbox((w) => listeningInstant(w, PREMIUM_ACCOUNT));
    const heard = world.nowPlaying(PREMIUM_ACCOUNT, clock.now());
    if (!heard) throw new Error('expected a simulated listen');

    const state = await listener.state();

    const deviceType = { smartphone: 'Smartphone', computer: 'Computer', speaker: 'Speaker' };
    expect(state).toMatchObject({
      device: { is_active: true, type: deviceType[heard.play.device] },
      is_playing: true,
      progress_ms: heard.progressMs,
      timestamp: heard.startedAt,
      item: { id: heard.track.id, type: 'track', duration_ms: heard.track.durationMs },
      shuffle_state: heard.play.shuffle,
      repeat_state: 'off',
      currently_playing_type: 'track',
    });
    expect(state.context?.uri ?? null).toBe(heard.play.context?.uri ?? null);

    clock.advance(20 * SECOND);
    const current = (await listener.send('GET', '/currently-playing')).json();
    expect(current.item.id).toBe(heard.track.id);
    expect(current.progress_ms).toBe(heard.progressMs + 20 * SECOND);
    expect(current).not.toHaveProperty('device');
  });

  it('answers 204 while the simulated person hears nothing, with every device inactive', async () => {
    const { listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));

    expect((await listener.send('GET', '')).statusCode).toBe(204);
    expect((await listener.send('GET', '/currently-playing')).statusCode).toBe(204);
    const devices = await listener.devices();
    expect(devices.map((device) => [device.type, device.is_active])).toEqual([
      ['Smartphone', false],
      ['Computer', false],
      ['Speaker', false],
    ]);
  });

  it('gives each account its own phone, computer and speaker, with stable ids and names', async () => {
    const first = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const second = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));

    const devices = await first.listener.devices();
    expect(await second.listener.devices()).toEqual(devices);
    expect(devices[0]).toMatchObject({ type: 'Smartphone', supports_volume: false });
    expect(devices[0].name).toMatch(/^(Mara's iPhone|Pixel 8)$/);
    expect(devices[1]).toMatchObject({ type: 'Computer', supports_volume: true });
    for (const device of devices) {
      expect(device.id).toMatch(/^[0-9a-f]{40}$/);
      expect(Object.keys(device)).toEqual([
        'id',
        'is_active',
        'is_private_session',
        'is_restricted',
        'name',
        'supports_volume',
        'type',
        'volume_percent',
      ]);
    }
  });

  it('a command takes the listen over: same track, place and device, and the simulation stops', async () => {
    const { world, clock, listener } = await sandbox((w) => listeningInstant(w, PREMIUM_ACCOUNT));
    const heard = world.nowPlaying(PREMIUM_ACCOUNT, clock.now());
    const before = await listener.state();

    expect((await listener.send('PUT', '/pause')).statusCode).toBe(200);

    const paused = await listener.state();
    expect(paused).toMatchObject({
      device: { id: before.device.id, is_active: true },
      item: { id: heard?.track.id },
      progress_ms: heard?.progressMs,
      is_playing: false,
      actions: { disallows: { pausing: true } },
    });
    expect(world.nowPlaying(PREMIUM_ACCOUNT, clock.now())).toBeNull();

    clock.advance(10 * MINUTE);
    expect(await listener.state()).toMatchObject({
      is_playing: false,
      progress_ms: heard?.progressMs,
    });
  });

  it('the simulated person picks up again a while after the real player stopped', async () => {
    const { world, clock, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const album = albumWithTracks(world, 2);
    await playAlbum(listener, album);
    clock.advance(40 * SECOND);
    await listener.send('PUT', '/pause');

    clock.advance(2 * 24 * 60 * MINUTE);
    const resumed = listeningInstant(world, PREMIUM_ACCOUNT, clock.now());
    clock.set(resumed);

    const state = await listener.state();
    expect(state.item.id).toBe(world.nowPlaying(PREMIUM_ACCOUNT, resumed)?.track.id);
    expect(state.is_playing).toBe(true);
  });
});

describe('real playback', () => {
  it('plays a context from an offset, its progress moving with the clock', async () => {
    const { world, clock, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const album = albumWithTracks(world, 4);
    const startedAt = clock.now();
    const computer = await playAlbum(listener, album, 1);
    clock.advance(12 * SECOND);

    const state = await listener.state();

    expect(state).toMatchObject({
      device: { id: computer, is_active: true, type: 'Computer' },
      context: {
        type: 'album',
        uri: `spotify:album:${album.id}`,
        href: `${PUBLIC_URL}/v1/albums/${album.id}`,
        external_urls: { spotify: `https://open.spotify.com/album/${album.id}` },
      },
      item: { id: album.trackIds[1], album: { id: album.id } },
      is_playing: true,
      progress_ms: 12 * SECOND,
      timestamp: startedAt,
      shuffle_state: false,
      repeat_state: 'off',
    });
    const devices = await listener.devices();
    expect(devices.filter((device) => device.is_active).map((device) => device.id)).toEqual([
      computer,
    ]);
  });

  it('moves to the next track when one ends, and stops at the end of the context', async () => {
    const { world, clock, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const album = albumWithTracks(world, 3);
    const duration = (index: number) => world.track(album.trackIds[index] ?? '')?.durationMs ?? 0;
    await playAlbum(listener, album);

    clock.advance(duration(0) + 5 * SECOND);
    expect(await listener.state()).toMatchObject({
      item: { id: album.trackIds[1] },
      progress_ms: 5 * SECOND,
    });

    clock.advance(album.trackIds.slice(1).reduce((sum, _, index) => sum + duration(index + 1), 0));
    expect(await listener.state()).toMatchObject({
      item: { id: album.trackIds[0] },
      is_playing: false,
      progress_ms: 0,
    });
  });

  it('skips with next and previous, restarting the track after 3 s', async () => {
    const { world, clock, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const album = albumWithTracks(world, 3);
    await playAlbum(listener, album);

    const next = await listener.send('POST', '/next');
    expect([next.statusCode, next.body]).toEqual([200, '']);
    expect((await listener.state()).item.id).toBe(album.trackIds[1]);

    clock.advance(10 * SECOND);
    expect((await listener.send('POST', '/previous')).statusCode).toBe(204);
    expect(await listener.state()).toMatchObject({
      item: { id: album.trackIds[1] },
      progress_ms: 0,
    });

    await listener.send('POST', '/previous');
    expect((await listener.state()).item.id).toBe(album.trackIds[0]);
  });

  it('plays a list of uris without a context, and seeks', async () => {
    const { world, clock, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const [a, b] = albumWithTracks(world, 2).trackIds;
    const phone = await listener.deviceId('Smartphone');

    const play = await listener.send('PUT', `/play?device_id=${phone}`, {
      uris: [`spotify:track:${a}`, `spotify:track:${b}`],
      offset: { uri: `spotify:track:${b}` },
      position_ms: 5000,
    });
    expect(play.statusCode).toBe(204);
    clock.advance(SECOND);
    expect(await listener.state()).toMatchObject({
      context: null,
      item: { id: b },
      progress_ms: 6000,
      device: { id: phone },
    });

    const seek = await listener.send('PUT', '/seek?position_ms=30000');
    expect([seek.statusCode, seek.body, seek.headers['content-type']]).toEqual([
      200,
      '',
      'application/json; charset=utf-8',
    ]);
    expect((await listener.state()).progress_ms).toBe(30_000);
  });

  it('pauses and resumes; pausing while paused is a restriction violation', async () => {
    const { world, clock, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    await playAlbum(listener, albumWithTracks(world, 2));
    clock.advance(5 * SECOND);

    const pause = await listener.send('PUT', '/pause');
    expect([pause.statusCode, pause.body]).toEqual([200, '']);
    clock.advance(MINUTE);
    expect(await listener.state()).toMatchObject({ is_playing: false, progress_ms: 5 * SECOND });

    const again = await listener.send('PUT', '/pause');
    expect([again.statusCode, again.json()]).toEqual([
      403,
      {
        error: {
          status: 403,
          message: 'Player command failed: Restriction violated',
          reason: 'UNKNOWN',
        },
      },
    ]);

    expect((await listener.send('PUT', '/play')).statusCode).toBe(204);
    clock.advance(SECOND);
    expect(await listener.state()).toMatchObject({ is_playing: true, progress_ms: 6 * SECOND });
  });

  it('takes an empty body with a JSON content type as "resume"', async () => {
    const { world, listener, app } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    await playAlbum(listener, albumWithTracks(world, 2));
    await listener.send('PUT', '/pause');

    const response = await app.inject({
      method: 'PUT',
      url: '/sandbox/v1/me/player/play',
      headers: { authorization: `Bearer ${listener.token}`, 'content-type': 'application/json' },
      payload: '',
    });

    expect(response.statusCode).toBe(204);
    expect((await listener.state()).is_playing).toBe(true);
  });

  it('resumes the last thing played when nothing is loaded', async () => {
    const { world, clock, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const [last] = world.recentPlays(PREMIUM_ACCOUNT, clock.now(), 1);
    const computer = await listener.deviceId('Computer');

    expect((await listener.send('PUT', `/play?device_id=${computer}`)).statusCode).toBe(204);

    expect(await listener.state()).toMatchObject({
      item: { id: last?.trackId },
      is_playing: true,
      progress_ms: 0,
    });
  });

  it('transfers playback between devices, playing or not as asked', async () => {
    const { world, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    await playAlbum(listener, albumWithTracks(world, 2));
    const phone = await listener.deviceId('Smartphone');
    const speaker = await listener.deviceId('Speaker');

    expect((await listener.send('PUT', '', { device_ids: [phone] })).statusCode).toBe(204);
    expect(await listener.state()).toMatchObject({ device: { id: phone }, is_playing: true });

    await listener.send('PUT', '/pause');
    await listener.send('PUT', '', { device_ids: [speaker], play: false });
    expect(await listener.state()).toMatchObject({ device: { id: speaker }, is_playing: false });
    await listener.send('PUT', '', { device_ids: [phone], play: true });
    expect(await listener.state()).toMatchObject({ device: { id: phone }, is_playing: true });

    const unknown = await listener.send('PUT', '', { device_ids: ['0'.repeat(40)] });
    expect([unknown.statusCode, unknown.json()]).toEqual([
      404,
      { error: { status: 404, message: 'Device not found' } },
    ]);
    const two = await listener.send('PUT', '', { device_ids: [phone, speaker] });
    expect(two.statusCode).toBe(400);
  });

  it('repeats a track or the context, and shuffles around the current track', async () => {
    const { world, clock, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const album = albumWithTracks(world, 3);
    const last = album.trackIds.length - 1;
    await playAlbum(listener, album, last);
    const duration = world.track(album.trackIds[last] ?? '')?.durationMs ?? 0;

    expect((await listener.send('PUT', '/repeat?state=track')).statusCode).toBe(204);
    clock.advance(duration + SECOND);
    expect(await listener.state()).toMatchObject({
      repeat_state: 'track',
      item: { id: album.trackIds[last] },
      progress_ms: SECOND,
    });

    await listener.send('PUT', '/repeat?state=context');
    clock.advance(duration);
    expect(await listener.state()).toMatchObject({
      item: { id: album.trackIds[0] },
      is_playing: true,
    });

    expect((await listener.send('PUT', '/shuffle?state=true')).statusCode).toBe(204);
    expect(await listener.state()).toMatchObject({
      shuffle_state: true,
      item: { id: album.trackIds[0] },
    });
    expect((await listener.send('PUT', '/repeat?state=sometimes')).statusCode).toBe(400);
    expect((await listener.send('PUT', '/shuffle')).statusCode).toBe(400);
  });

  it('queues tracks to play before the rest of the context', async () => {
    const { world, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const album = albumWithTracks(world, 3);
    const other = world.tracks.find((track) => track.albumId !== album.id);
    await playAlbum(listener, album);

    const queued = await listener.send('POST', `/queue?uri=spotify:track:${other?.id}`);
    expect(queued.statusCode).toBe(204);
    const queue = (await listener.send('GET', '/queue')).json();
    expect(queue.currently_playing.id).toBe(album.trackIds[0]);
    expect(queue.queue.slice(0, 2).map((track: Json) => track.id)).toEqual([
      other?.id,
      album.trackIds[1],
    ]);

    await listener.send('POST', '/next');
    expect((await listener.state()).item.id).toBe(other?.id);
    await listener.send('POST', '/next');
    expect((await listener.state()).item.id).toBe(album.trackIds[1]);

    expect((await listener.send('POST', '/queue?uri=spotify:episode:abc')).statusCode).toBe(400);
  });

  it('sets the volume of devices that allow it', async () => {
    const { world, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const computer = await playAlbum(listener, albumWithTracks(world, 2));

    expect((await listener.send('PUT', '/volume?volume_percent=35')).statusCode).toBe(204);
    expect((await listener.state()).device).toMatchObject({ id: computer, volume_percent: 35 });
    expect((await listener.send('PUT', '/volume?volume_percent=101')).statusCode).toBe(400);

    const phone = await listener.deviceId('Smartphone');
    const refused = await listener.send('PUT', `/volume?volume_percent=20&device_id=${phone}`);
    expect(refused.json()).toEqual({
      error: {
        status: 403,
        message: 'Player command failed: Cannot control device volume',
        reason: 'VOLUME_CONTROL_DISALLOW',
      },
    });
  });

  it('refuses unknown tracks and malformed bodies', async () => {
    const { listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const computer = await listener.deviceId('Computer');
    const play = (body: object | string) =>
      listener.send('PUT', `/play?device_id=${computer}`, body);

    expect((await play({ uris: ['spotify:track:0000000000000000000000'] })).json()).toMatchObject({
      error: { status: 404, reason: 'NO_SPECIFIC_TRACK' },
    });
    expect((await play({ uris: ['not a uri'] })).statusCode).toBe(400);
    expect((await play({ context_uri: 'spotify:album:0000000000000000000000' })).statusCode).toBe(
      404,
    );
    expect((await play({ position_ms: -1 })).statusCode).toBe(400);
    expect((await listener.send('PUT', '/seek')).statusCode).toBe(400);
  });
});

describe('the history of real playback', () => {
  it('records every track heard for 30 s or more, and shows it in recently-played', async () => {
    const { world, clock, listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));
    const album = albumWithTracks(world, 4);
    const start = clock.now();
    await playAlbum(listener, album);

    clock.advance(45 * SECOND);
    const skippedAfter45s = clock.now();
    await listener.send('POST', '/next');
    clock.advance(10 * SECOND);
    await listener.send('POST', '/next');
    const third = world.track(album.trackIds[2] ?? '');
    clock.advance((third?.durationMs ?? 0) + 5 * SECOND);

    // The request settles the player: the third track ended since it was last asked.
    const recent = await listener.recentlyPlayed();
    expect(recent.slice(0, 2).map((item) => item.track.id)).toEqual([
      album.trackIds[2],
      album.trackIds[0],
    ]);
    const plays = world.playsBetween(PREMIUM_ACCOUNT, start, clock.now());
    expect(plays.map((play) => [play.trackId, play.msPlayed])).toEqual([
      [album.trackIds[0], 45 * SECOND],
      [album.trackIds[2], third?.durationMs],
    ]);
    expect(plays[0]).toMatchObject({
      playedAt: skippedAfter45s,
      context: { type: 'album', uri: `spotify:album:${album.id}` },
      device: 'computer',
      shuffle: false,
    });

    expect(recent[1].played_at).toBe(new Date(skippedAfter45s).toISOString());
  });
});

describe('player errors', () => {
  it('answers 404 NO_ACTIVE_DEVICE to commands when no device is active', async () => {
    const { listener } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));

    for (const [method, url] of [
      ['PUT', '/pause'],
      ['POST', '/next'],
      ['PUT', '/play'],
      ['PUT', '/seek?position_ms=0'],
    ] as const) {
      const response = await listener.send(method, url);
      expect([response.statusCode, response.json()]).toEqual([
        404,
        {
          error: {
            status: 404,
            message: 'Player command failed: No active device found',
            reason: 'NO_ACTIVE_DEVICE',
          },
        },
      ]);
    }
  });

  it('answers 403 PREMIUM_REQUIRED to the commands of a free account, whose state still shows', async () => {
    const { world, clock, listener } = await sandbox(
      (w) => listeningInstant(w, FREE_ACCOUNT),
      FREE_ACCOUNT,
    );

    const play = await listener.send('PUT', '/play');
    expect([play.statusCode, play.json()]).toEqual([
      403,
      {
        error: {
          status: 403,
          message: 'Player command failed: Premium required',
          reason: 'PREMIUM_REQUIRED',
        },
      },
    ]);
    expect((await listener.send('POST', '/next')).statusCode).toBe(403);
    expect((await listener.state()).item.id).toBe(
      world.nowPlaying(FREE_ACCOUNT, clock.now())?.track.id,
    );
  });

  it('needs the scopes Spotify documents for each endpoint', async () => {
    const { app } = await sandbox((w) => listeningInstant(w, PREMIUM_ACCOUNT));
    const readOnly = await connect(app, { scope: 'user-read-playback-state' });
    const currentOnly = await connect(app, { scope: 'user-read-currently-playing' });
    const reader = new Listener(app, readOnly.access_token);
    const current = new Listener(app, currentOnly.access_token);
    const insufficient = { error: { status: 403, message: 'Insufficient client scope' } };

    expect((await reader.send('GET', '')).statusCode).toBe(200);
    expect((await reader.send('GET', '/devices')).statusCode).toBe(200);
    expect((await reader.send('GET', '/currently-playing')).json()).toEqual(insufficient);
    expect((await reader.send('PUT', '/pause')).json()).toEqual(insufficient);
    expect((await current.send('GET', '/currently-playing')).statusCode).toBe(200);
    expect((await current.send('GET', '')).json()).toEqual(insufficient);
    expect((await current.send('GET', '/queue')).json()).toEqual(insufficient);
  });

  it('answers 401 without a valid token', async () => {
    const { app } = await sandbox((w) => idleInstant(w, PREMIUM_ACCOUNT));

    const response = await new Listener(app, 'not-a-token').send('GET', '');

    expect([response.statusCode, response.json()]).toEqual([
      401,
      { error: { status: 401, message: 'Invalid access token' } },
    ]);
  });
});
