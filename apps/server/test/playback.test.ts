import { ManualClock } from '@earshot/spotify-sandbox/clock';
import type { World } from '@earshot/spotify-sandbox/world/model';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plays } from '../src/db/schema/listening';
import { playedEvents } from '../src/db/schema/playback';
import { startHarness, type Harness, type Viewer } from './support/harness';

const MARA = 'maralindqvist';
const TOMAS = '31kzt4wq7yv2jhd6ncx3bfrm5lpa';
const AIKO = '11183207465';
const MINUTE = 60_000;
const EVENING = Date.UTC(2026, 3, 14, 19, 30);

/** The first minute from `from` when none of `accounts` is listening: no device is active. */
function idleInstant(world: World, accounts: readonly string[], from = EVENING): number {
  for (let at = from; at < from + 7 * 24 * 60 * MINUTE; at += MINUTE) {
    if (accounts.every((account) => !world.nowPlaying(account, at))) return at;
  }
  throw new Error('nobody ever stops listening');
}

/** An album of the world with at least three tracks. */
function someAlbum(world: World) {
  const album = world.albums.find((each) => each.trackIds.length >= 3);
  if (!album) throw new Error('no album with three tracks');
  return album;
}

const world = createWorld();
const PLAYER_CALLS = [
  ['POST', '/api/spotify/play'],
  ['GET', '/api/spotify/playback'],
  ['POST', '/api/spotify/pause'],
  ['POST', '/api/spotify/resume'],
  ['POST', '/api/spotify/next'],
  ['GET', '/api/spotify/next'],
  ['GET', '/api/spotify/token'],
  ['GET', '/api/spotify/devices'],
  ['POST', '/api/spotify/transfer'],
] as const;

interface DeviceAnswer {
  id: string;
  name: string;
  type: string;
  is_active: boolean;
}

describe('playback in Extended Quota Mode', () => {
  let harness: Harness;
  let mara: Viewer;
  let aiko: Viewer;
  let tomas: Viewer;
  const album = someAlbum(world);
  const [first, second] = album.trackIds as [string, string, ...string[]];

  const call = (viewer: Viewer | undefined, method: 'GET' | 'POST', url: string, body?: object) =>
    harness.app.inject({
      method,
      url,
      headers: viewer ? { cookie: viewer.cookie } : {},
      ...(body && { payload: body }),
    });
  const state = async (viewer: Viewer) =>
    (await call(viewer, 'GET', '/api/spotify/playback')).json<{
      state: null | {
        is_playing: boolean;
        progress_ms: number;
        item: { liked: boolean; track: { id: string; uid: string; title: string } } | null;
        device: { name: string; type: string };
      };
    }>().state;
  const devices = async (viewer: Viewer) =>
    (await call(viewer, 'GET', '/api/spotify/devices')).json<{ devices: DeviceAnswer[] }>().devices;
  const subscribed = async (viewer: Viewer) =>
    (await call(viewer, 'GET', '/api/user/me')).json<{ subscribed: boolean | null }>().subscribed;
  const play = (viewer: Viewer, trackId: string, contextUri: string | null, source = 'album') =>
    call(viewer, 'POST', '/api/spotify/play', {
      track_id: trackId,
      context: { source, user: null, context_uri: contextUri },
    });

  beforeAll(async () => {
    const clock = new ManualClock(idleInstant(world, [MARA, AIKO, TOMAS]));
    harness = await startHarness({ sandbox: { world, clock } });
    mara = await harness.signIn(MARA);
    aiko = await harness.signIn(AIKO);
    tomas = await harness.signIn(TOMAS);
  }, 60_000);
  afterAll(() => harness.close());

  it('answers 401 to every player call without a session, before looking at the body', async () => {
    for (const [method, url] of PLAYER_CALLS) {
      const response = await call(undefined, method, url, method === 'POST' ? {} : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ detail: 'Not logged in' });
    }
  });

  it('shows an empty state and inactive devices while nothing plays', async () => {
    expect(await state(mara)).toBeNull();
    const list = await devices(mara);
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list.every((device) => !device.is_active)).toBe(true);
  });

  it('answers "No active device" (409) when no device is active, for the web player to take over', async () => {
    const response = await play(mara, first, null, 'track');
    expect(response.statusCode).toBe(409);
    expect(response.json<{ detail: string }>().detail).toMatch(/no active device/i);
    const pause = await call(mara, 'POST', '/api/spotify/pause');
    expect(pause.statusCode).toBe(409);
  });

  it('refuses malformed bodies with 400', async () => {
    const bad = await call(mara, 'POST', '/api/spotify/play', {
      track_id: "x'; drop table users",
      context: { source: 'album', user: null, context_uri: null },
    });
    expect(bad.statusCode).toBe(400);
    const badSource = await call(mara, 'POST', '/api/spotify/play', {
      track_id: first,
      context: { source: 'nowhere', user: null, context_uri: null },
    });
    expect(badSource.statusCode).toBe(400);
    const badDevice = await call(mara, 'POST', '/api/spotify/transfer', { device_id: 'a b' });
    expect(badDevice.statusCode).toBe(400);
  });

  it('transfers to a device, plays in a context, records the play and learns the plan', async () => {
    const phone = (await devices(mara))[0]!;
    const transfer = await call(mara, 'POST', '/api/spotify/transfer', {
      device_id: phone.id,
      play: false,
    });
    expect(transfer.statusCode).toBe(204);
    expect((await devices(mara)).find((device) => device.is_active)?.id).toBe(phone.id);

    const response = await play(mara, first, `spotify:album:${album.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ track_id: first, confirmed: true });

    const now = await state(mara);
    expect(now).toMatchObject({
      is_playing: true,
      device: { name: phone.name, type: phone.type },
      item: { track: { id: first } },
    });
    expect(now?.item?.track.uid).toEqual(expect.any(String));
    expect(now?.item?.liked).toEqual(expect.any(Boolean));

    const events = await harness.database.db
      .select()
      .from(playedEvents)
      .where(eq(playedEvents.userId, mara.id));
    expect(events).toEqual([
      expect.objectContaining({
        trackId: first,
        source: 'album',
        contextUri: `spotify:album:${album.id}`,
      }),
    ]);
    expect(await subscribed(mara)).toBe(true);
  });

  it("names Spotify's queue as what comes next in an album, and skips to it", async () => {
    const next = await call(mara, 'GET', '/api/spotify/next');
    expect(next.json()).toEqual({ next: { track_id: second } });

    expect((await call(mara, 'POST', '/api/spotify/next')).statusCode).toBe(204);
    expect((await state(mara))?.item?.track.id).toBe(second);
  });

  it('pauses and resumes', async () => {
    expect((await call(mara, 'POST', '/api/spotify/pause')).statusCode).toBe(204);
    expect((await state(mara))?.is_playing).toBe(false);
    expect((await call(mara, 'POST', '/api/spotify/resume')).statusCode).toBe(204);
    expect((await state(mara))?.is_playing).toBe(true);
  });

  it("names the feed's next item after a play started from a feed", async () => {
    const [a, b, c] = album.trackIds.slice(0, 3) as [string, string, string];
    // Each track Spotify plays enters the catalogue when the player shows it.
    for (const id of [c, b, a]) {
      expect((await play(mara, id, null, 'track')).json()).toMatchObject({ confirmed: true });
      expect((await state(mara))?.item?.track.id).toBe(id);
    }
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE);
    await harness.database.db.insert(plays).values([
      { userId: mara.id, trackId: a, playedAt: minutesAgo(30), source: 'api' },
      { userId: mara.id, trackId: b, playedAt: minutesAgo(40), source: 'api' },
      { userId: mara.id, trackId: c, playedAt: minutesAgo(50), source: 'api' },
    ]);

    const response = await call(mara, 'POST', '/api/spotify/play', {
      track_id: b,
      context: { source: 'recent', user: 'mara-lindqvist', context_uri: null },
    });
    expect(response.json()).toEqual({ track_id: b, confirmed: true });
    // Spotify plays the track alone; what follows is the feed's next item.
    expect((await call(mara, 'GET', '/api/spotify/next')).json()).toEqual({
      next: { track_id: c },
    });
  });

  it("never lets one user drive another's player", async () => {
    const maraDevice = (await devices(mara)).find((device) => device.is_active)!;
    const response = await call(tomas, 'POST', '/api/spotify/transfer', {
      device_id: maraDevice.id,
      play: true,
    });
    expect(response.statusCode).toBe(404);
    expect((await call(tomas, 'POST', '/api/spotify/pause')).statusCode).toBe(409);
    expect((await state(mara))?.is_playing).toBe(true);
    expect(await state(tomas)).toBeNull();
  });

  it('gives the owner a short-lived token for the web player, never the refresh token', async () => {
    const response = await call(mara, 'GET', '/api/spotify/token');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{ access_token: string; expires_in: number; sdk_url: string }>();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'sdk_url']);
    expect(body.expires_in).toBeGreaterThan(0);
    expect(body.expires_in).toBeLessThanOrEqual(3600);
    expect(body.sdk_url).toBe(harness.config.spotify.sdkUrl);
    // The token is Mara's own: with it the SDK registers a web player on her account.
    const register = await fetch(`${harness.sandboxUrl}/sdk/devices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${body.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Earshot Web Player' }),
    });
    expect(register.status).toBe(201);
    expect((await devices(mara)).map((device) => device.name)).toContain('Earshot Web Player');
  });

  it('tells a free account that Premium is required (402), and keeps the plan on the user', async () => {
    expect(await subscribed(aiko)).toBe(false);
    const phone = (await devices(aiko))[0]!;
    const transfer = await call(aiko, 'POST', '/api/spotify/transfer', { device_id: phone.id });
    expect(transfer.statusCode).toBe(402);
    expect(transfer.json<{ detail: string }>().detail).toMatch(/premium/i);
    for (const url of ['/api/spotify/pause', '/api/spotify/resume', '/api/spotify/next']) {
      expect((await call(aiko, 'POST', url)).statusCode, url).toBe(402);
    }
    expect((await play(aiko, first, null, 'track')).statusCode).toBe(402);
    expect((await call(aiko, 'GET', '/api/spotify/token')).statusCode).toBe(402);
    expect(await subscribed(aiko)).toBe(false);
  });

  it('answers 424, never a 5xx, when Spotify fails, and 429 with Retry-After when it limits', async () => {
    await harness.control('PUT', '/faults', {
      rules: [{ type: 'server-error', every: 1, path: '/v1/me/player' }],
    });
    try {
      for (const [method, url] of [
        ['GET', '/api/spotify/playback'],
        ['GET', '/api/spotify/devices'],
        ['POST', '/api/spotify/pause'],
      ] as const) {
        const response = await call(mara, method, url);
        expect(response.statusCode, url).toBe(424);
        expect(response.json<{ detail: string }>().detail).toMatch(/spotify/i);
      }
      await harness.control('PUT', '/faults', {
        rules: [
          { type: 'rate-limit', every: 1, retryAfterSec: 7200, path: '/v1/me/player/devices' },
        ],
      });
      const limited = await call(mara, 'GET', '/api/spotify/devices');
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await harness.control('DELETE', '/faults');
    }
  });

  it('gives an empty state when Spotify refuses the token (401) on playback and device calls', async () => {
    await harness.control('POST', `/accounts/${TOMAS}/revoke`, {});
    await harness.control('POST', '/tokens/expire');
    expect((await call(tomas, 'GET', '/api/spotify/playback')).json()).toEqual({ state: null });
    expect((await call(tomas, 'GET', '/api/spotify/devices')).json()).toEqual({ devices: [] });
    expect((await call(tomas, 'GET', '/api/spotify/next')).json()).toEqual({ next: null });
  });
});

describe('playback in Development Mode', () => {
  let harness: Harness;
  let mara: Viewer;
  let aiko: Viewer;
  const call = (viewer: Viewer, method: 'GET' | 'POST', url: string, body?: object) =>
    harness.app.inject({ method, url, headers: { cookie: viewer.cookie }, payload: body });
  const subscribed = async (viewer: Viewer) =>
    (await call(viewer, 'GET', '/api/user/me')).json<{ subscribed: boolean | null }>().subscribed;

  beforeAll(async () => {
    const clock = new ManualClock(idleInstant(world, [MARA, AIKO]));
    harness = await startHarness({ mode: 'development', sandbox: { world, clock } });
    mara = await harness.signIn(MARA);
    aiko = await harness.signIn(AIKO);
  }, 60_000);
  afterAll(() => harness.close());

  it('learns the plan from the first player answer, as /me hides it', async () => {
    expect(await subscribed(mara)).toBeNull();
    expect(await subscribed(aiko)).toBeNull();

    const devices = (await call(mara, 'GET', '/api/spotify/devices')).json<{
      devices: DeviceAnswer[];
    }>().devices;
    const transfer = await call(mara, 'POST', '/api/spotify/transfer', {
      device_id: devices[0]!.id,
      play: false,
    });
    expect(transfer.statusCode).toBe(204);
    expect(await subscribed(mara)).toBe(true);

    const free = await call(aiko, 'POST', '/api/spotify/resume');
    expect(free.statusCode).toBe(402);
    expect(await subscribed(aiko)).toBe(false);
  });

  it('plays a track on its own and shows it without the fields Development Mode hides', async () => {
    const track = someAlbum(world).trackIds[0]!;
    const response = await call(mara, 'POST', '/api/spotify/play', {
      track_id: track,
      context: { source: 'track', user: null, context_uri: null },
    });
    expect(response.json()).toEqual({ track_id: track, confirmed: true });
    const state = (await call(mara, 'GET', '/api/spotify/playback')).json<{
      state: { item: { track: { id: string } } };
    }>().state;
    expect(state.item.track.id).toBe(track);
    expect((await call(mara, 'GET', '/api/spotify/next')).json()).toEqual({ next: null });
  });
});
