// @vitest-environment jsdom
/// <reference types="spotify-web-playback-sdk" />
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_CLIENT_ID } from '../src/demo-client';
import { createWorld } from '../src/world/world';
import { FREE_ACCOUNT, pkcePair, PREMIUM_ACCOUNT, REDIRECT_URI, SDK_SCOPES } from './helpers';

/** What the page sees of the SDK's globals. */
interface SdkPage {
  onSpotifyWebPlaybackSDKReady?: () => void;
  Spotify: { Player: typeof Spotify.Player };
}

const page = globalThis as unknown as SdkPage;
const WAIT = { timeout: 10_000, interval: 50 };

const PACKAGE_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** The default world, as the sandbox under test generates it. */
const world = createWorld();
let sandbox: { url: string; process: ChildProcess };
let sdkReadyCalls = 0;
const players: Spotify.Player[] = [];

/** A token through the real flow: the control API's headless consent, then the token endpoint. */
async function tokenFor(account: string): Promise<string> {
  const { verifier, challenge } = pkcePair();
  const consent = await fetch(`${sandbox.url}/control/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: DEMO_CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      account,
      scope: SDK_SCOPES,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }),
  });
  const { redirect_to: redirectTo } = (await consent.json()) as { redirect_to: string };
  const form = [
    ['grant_type', 'authorization_code'],
    ['code', new URL(redirectTo).searchParams.get('code') ?? ''],
    ['redirect_uri', REDIRECT_URI],
    ['client_id', DEMO_CLIENT_ID],
    ['code_verifier', verifier],
  ];
  const response = await fetch(`${sandbox.url}/accounts/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.map((pair) => pair.map(encodeURIComponent).join('=')).join('&'),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

function webApi(token: string, method: string, path: string, body?: object) {
  return fetch(`${sandbox.url}/v1/me/player${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body && { body: JSON.stringify(body) }),
  });
}

function newPlayer(token: string, name = 'Earshot'): Spotify.Player {
  const player = new page.Spotify.Player({
    name,
    getOAuthToken: (give) => give(token),
    volume: 0.4,
  });
  players.push(player);
  return player;
}

/** Collects the payloads of one event of a player. */
function record<T>(player: Spotify.Player, event: string): T[] {
  const seen: T[] = [];
  (player.addListener as (event: string, callback: (payload: T) => void) => boolean)(
    event,
    (payload) => seen.push(payload),
  );
  return seen;
}

/**
 * Runs the standalone sandbox (`src/main.ts`, i.e. `startSandboxServer`) in its own process: in
 * this jsdom environment the test's modules are transformed for the browser, where the server's
 * modules do not run. Its clock is frozen at an instant the simulated person hears nothing.
 */
function startSandbox(frozenAt: number): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: PACKAGE_DIR,
    env: {
      ...process.env,
      SANDBOX_PORT: '0',
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_FREEZE_AT: new Date(frozenAt).toISOString(),
      SANDBOX_REDIRECT_URIS: REDIRECT_URI,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output: string | null = '';
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${output}`)));
    // Read everything it prints (its request log too), so its output never blocks it.
    child.stdout?.on('data', (chunk: Buffer) => {
      if (output === null) return;
      output += chunk.toString('utf8');
      const url = /Spotify sandbox at (\S+)/.exec(output)?.[1];
      if (url) {
        output = null;
        resolve({ url, process: child });
      }
    });
  });
}

beforeAll(async () => {
  let idle = Date.UTC(2026, 3, 14, 19, 30);
  while (world.nowPlaying(PREMIUM_ACCOUNT, idle)) idle += 60_000;
  sandbox = await startSandbox(idle);
  const source = await (await fetch(`${sandbox.url}/sdk/spotify-player.js`)).text();
  page.onSpotifyWebPlaybackSDKReady = () => {
    sdkReadyCalls += 1;
  };
  // What a <script src> does with the file, in this test's window.
  new Function(source)();
  await vi.waitFor(() => expect(sdkReadyCalls).toBe(1), WAIT);
}, 60_000);

afterEach(() => {
  for (const player of players.splice(0)) player.disconnect();
});

afterAll(() => {
  sandbox.process.removeAllListeners('exit');
  sandbox.process.kill();
});

describe('the Web Playback SDK stand-in in a page', () => {
  it('defines Spotify.Player and calls onSpotifyWebPlaybackSDKReady once', () => {
    expect(sdkReadyCalls).toBe(1);
    expect(typeof page.Spotify.Player).toBe('function');
  });

  it('connects: registers a device with the given name and fires ready', async () => {
    const token = await tokenFor(PREMIUM_ACCOUNT);
    const player = newPlayer(token, 'Earshot Web Player');
    const ready = record<Spotify.WebPlaybackInstance>(player, 'ready');

    expect(await player.connect()).toBe(true);

    expect(ready).toHaveLength(1);
    const deviceId = ready[0]?.device_id;
    const { devices } = (await (await webApi(token, 'GET', '/devices')).json()) as {
      devices: { id: string; name: string; volume_percent: number }[];
    };
    expect(devices).toContainEqual(
      expect.objectContaining({ id: deviceId, name: 'Earshot Web Player', volume_percent: 40 }),
    );
    expect(await player.getVolume()).toBe(0.4);
    expect(await player.getCurrentState()).toBeNull();
  });

  it('fires authentication_error for a bad token', async () => {
    const player = newPlayer('not-a-token');
    const errors = record<Spotify.Error>(player, 'authentication_error');
    const ready = record<Spotify.WebPlaybackInstance>(player, 'ready');

    expect(await player.connect()).toBe(false);

    expect(errors).toEqual([{ message: 'Authentication failed' }]);
    expect(ready).toEqual([]);
  });

  it('fires account_error for a free account', async () => {
    const player = newPlayer(await tokenFor(FREE_ACCOUNT));
    const errors = record<Spotify.Error>(player, 'account_error');

    expect(await player.connect()).toBe(false);

    expect(errors).toEqual([{ message: 'This functionality is restricted to premium users only' }]);
  });

  it('fires player_state_changed when the Web API plays on it, and its controls reach the player', async () => {
    const token = await tokenFor(PREMIUM_ACCOUNT);
    const player = newPlayer(token);
    const ready = record<Spotify.WebPlaybackInstance>(player, 'ready');
    const states = record<Spotify.PlaybackState | null>(player, 'player_state_changed');
    await player.connect();
    const album = world.albums.find((each) => each.trackIds.length >= 2);
    const uris = (album?.trackIds ?? []).slice(0, 2).map((id) => `spotify:track:${id}`);

    const play = await webApi(token, 'PUT', `/play?device_id=${ready[0]?.device_id}`, { uris });
    expect(play.status).toBe(204);

    await vi.waitFor(() => expect(states.at(-1)?.paused).toBe(false), WAIT);
    expect(states.at(-1)?.track_window.current_track.uri).toBe(uris[0]);

    await player.pause();
    expect(states.at(-1)?.paused).toBe(true);
    const state = (await (await webApi(token, 'GET', '')).json()) as { is_playing: boolean };
    expect(state.is_playing).toBe(false);

    await player.nextTrack();
    expect(states.at(-1)?.track_window.current_track.uri).toBe(uris[1]);
    expect((await player.getCurrentState())?.track_window.current_track.uri).toBe(uris[1]);
  });

  it('fires not_ready when Spotify drops the device, then ready again as it reconnects', async () => {
    const token = await tokenFor(PREMIUM_ACCOUNT);
    const player = newPlayer(token);
    const ready = record<Spotify.WebPlaybackInstance>(player, 'ready');
    const notReady = record<Spotify.WebPlaybackInstance>(player, 'not_ready');
    await player.connect();
    const first = ready[0]?.device_id ?? '';

    // The sandbox forgets the device (as Spotify does with a silent page).
    const dropped = await fetch(`${sandbox.url}/sdk/devices/${first}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(dropped.status).toBe(204);

    await vi.waitFor(() => expect(notReady).toEqual([{ device_id: first }]), WAIT);
    await vi.waitFor(() => expect(ready).toHaveLength(2), WAIT);
    expect(ready[1]?.device_id).not.toBe(first);
  });

  it('goes away on disconnect', async () => {
    const token = await tokenFor(PREMIUM_ACCOUNT);
    const player = newPlayer(token);
    const ready = record<Spotify.WebPlaybackInstance>(player, 'ready');
    await player.connect();
    const listed = async () => {
      const response = await webApi(token, 'GET', '/devices');
      const { devices } = (await response.json()) as { devices: { id: string }[] };
      return devices.map((device) => device.id);
    };
    expect(await listed()).toContain(ready[0]?.device_id);

    player.disconnect();

    await vi.waitFor(async () => expect(await listed()).not.toContain(ready[0]?.device_id), WAIT);
  });
});
