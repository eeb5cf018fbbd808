import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxClock } from '../src/clock';
import type { FaultConfigInput } from '../src/faults/config';
import { startSandboxServer, type SandboxServer } from '../src/main';
import type { SandboxOptions } from '../src/plugin';
import {
  authorizeParams,
  authorizeUrl,
  buildSandbox,
  connect,
  DEVELOPMENT_CLIENT,
  getMe,
  PUBLIC_CLIENT,
  requestToken,
} from './helpers';

const T0 = Date.UTC(2026, 2, 1, 12);

const apps: FastifyInstance[] = [];
const servers: SandboxServer[] = [];
async function sandbox(options: Partial<SandboxOptions> = {}) {
  const app = await buildSandbox({ control: { enabled: true }, ...options });
  apps.push(app);
  return app;
}
afterEach(async () => {
  await Promise.all([
    ...apps.splice(0).map((app) => app.close()),
    ...servers.splice(0).map((server) => server.close()),
  ]);
});

async function setFaults(app: FastifyInstance, config: FaultConfigInput) {
  const response = await app.inject({
    method: 'PUT',
    url: '/sandbox/control/faults',
    payload: config,
  });
  expect(response.statusCode).toBe(200);
  return response.json<unknown>();
}

/** Status codes of `count` successive GET /v1/me. */
async function meStatuses(app: FastifyInstance, token: string, count: number) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1)
    statuses.push((await getMe(app, `Bearer ${token}`)).statusCode);
  return statuses;
}

function refreshWith(app: FastifyInstance, refreshToken: string) {
  return requestToken(app, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: PUBLIC_CLIENT.id,
  });
}

describe('latency', () => {
  it('delays Web API and token requests by the configured time', async () => {
    const app = await sandbox();
    const { access_token, refresh_token } = await connect(app);
    await setFaults(app, { rules: [{ type: 'latency', ms: 120, jitterMs: 30 }] });

    let started = performance.now();
    expect((await getMe(app, `Bearer ${access_token}`)).statusCode).toBe(200);
    const apiMs = performance.now() - started;
    started = performance.now();
    expect((await refreshWith(app, refresh_token)).statusCode).toBe(200);
    const tokenMs = performance.now() - started;

    for (const elapsed of [apiMs, tokenMs]) {
      expect(elapsed).toBeGreaterThanOrEqual(110);
      expect(elapsed).toBeLessThan(1000);
    }
  });

  it('leaves pages, images and the control API alone', async () => {
    const app = await sandbox();
    const { access_token } = await connect(app);
    const me = (await getMe(app, `Bearer ${access_token}`)).json<{ images: { url: string }[] }>();
    const imagePath = new URL(me.images[0]?.url ?? '').pathname;
    await setFaults(app, {
      rules: [
        { type: 'latency', ms: 400 },
        { type: 'server-error', every: 1 },
      ],
    });

    const started = performance.now();
    const page = await app.inject(authorizeUrl(authorizeParams()));
    const image = await app.inject(imagePath);
    const state = await app.inject('/sandbox/control/state');
    const elapsed = performance.now() - started;

    expect(page.statusCode).toBe(200);
    expect(image.statusCode).toBe(200);
    expect(state.statusCode).toBe(200);
    expect(elapsed).toBeLessThan(400);
  });
});

describe('429 at a rate', () => {
  it('refuses every Nth request with Retry-After, in the Web API format', async () => {
    const app = await sandbox();
    const { access_token } = await connect(app);
    await setFaults(app, { rules: [{ type: 'rate-limit', every: 3, retryAfterSec: 7 }] });

    expect(await meStatuses(app, access_token, 6)).toEqual([200, 200, 429, 200, 200, 429]);
    await setFaults(app, { rules: [{ type: 'rate-limit', every: 1, retryAfterSec: 7 }] });
    const limited = await getMe(app, `Bearer ${access_token}`);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.json()).toEqual({ error: { status: 429, message: 'API rate limit exceeded' } });
  });

  it('draws a probability from a seeded stream: the same seed hits the same requests', async () => {
    const runs: number[][] = [];
    for (const seed of [42, 42, 43]) {
      const app = await sandbox();
      const { access_token } = await connect(app);
      await setFaults(app, { seed, rules: [{ type: 'rate-limit', rate: 0.5 }] });
      runs.push(await meStatuses(app, access_token, 40));
    }

    const [first, again, other] = runs;
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    const limited = first?.filter((status) => status === 429).length ?? 0;
    expect(limited).toBeGreaterThan(8);
    expect(limited).toBeLessThan(32);
  });

  it('starts the stream over when the configuration is replaced', async () => {
    const app = await sandbox();
    const { access_token } = await connect(app);
    const config = {
      seed: 9,
      rules: [
        { type: 'drop', rate: 0 },
        { type: 'rate-limit', rate: 0.3 },
      ],
    };

    await setFaults(app, config as FaultConfigInput);
    const first = await meStatuses(app, access_token, 20);
    await setFaults(app, config as FaultConfigInput);
    const second = await meStatuses(app, access_token, 20);

    expect(second).toEqual(first);
    expect(first).toContain(429);
  });

  it('answers the token endpoint in the accounts service format', async () => {
    const app = await sandbox();
    const { refresh_token } = await connect(app);
    await setFaults(app, { rules: [{ type: 'rate-limit', rate: 1, retryAfterSec: 30 }] });

    const response = await refreshWith(app, refresh_token);

    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'Too many requests',
    });
  });
});

describe('429 for a window', () => {
  it('refuses every request until the instant, with the seconds left rounded up', async () => {
    const clock = new SandboxClock({ at: T0, frozen: true });
    const app = await sandbox({ clock });
    const { access_token } = await connect(app);
    const described = await setFaults(app, {
      rules: [{ type: 'rate-limit', until: '2026-03-01T12:01:00Z' }],
    });
    expect(described).toEqual({
      seed: 1,
      rules: [{ type: 'rate-limit', until: '2026-03-01T12:01:00Z', retryAfterSec: 1 }],
    });

    const first = await getMe(app, `Bearer ${access_token}`);
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe('60');
    clock.advance(58_500);
    expect((await getMe(app, `Bearer ${access_token}`)).headers['retry-after']).toBe('2');
    clock.advance(1_499);
    expect((await getMe(app, `Bearer ${access_token}`)).headers['retry-after']).toBe('1');
    clock.advance(1);
    expect((await getMe(app, `Bearer ${access_token}`)).statusCode).toBe(200);
  });

  it('turns forSec into an instant on the sandbox clock', async () => {
    const clock = new SandboxClock({ at: T0, frozen: true });
    const app = await sandbox({ clock, accessTokenTtlSec: 7200 });
    const { access_token } = await connect(app);

    const described = await setFaults(app, { rules: [{ type: 'rate-limit', forSec: 3600 }] });

    expect(described).toEqual({
      seed: 1,
      rules: [{ type: 'rate-limit', until: '2026-03-01T13:00:00.000Z', retryAfterSec: 1 }],
    });
    expect((await getMe(app, `Bearer ${access_token}`)).headers['retry-after']).toBe('3600');
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { action: 'advance', ms: 3600_000 },
    });
    expect((await getMe(app, `Bearer ${access_token}`)).statusCode).toBe(200);
  });
});

describe('5xx at a rate', () => {
  it("answers in Spotify's error format, cycling through the statuses", async () => {
    const app = await sandbox();
    const { access_token } = await connect(app);
    await setFaults(app, { rules: [{ type: 'server-error', every: 2 }] });

    const bodies: unknown[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await getMe(app, `Bearer ${access_token}`);
      bodies.push(response.statusCode === 200 ? 200 : response.json());
    }

    expect(bodies).toEqual([
      200,
      { error: { status: 500, message: 'Server error' } },
      200,
      { error: { status: 502, message: 'Bad gateway' } },
      200,
      { error: { status: 503, message: 'Service unavailable' } },
    ]);
  });

  it('answers the token endpoint in the accounts service format', async () => {
    const app = await sandbox();
    const { refresh_token } = await connect(app);
    await setFaults(app, { rules: [{ type: 'server-error', rate: 1, statuses: [503] }] });

    const response = await refreshWith(app, refresh_token);

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'Service unavailable',
    });
    await app.inject({ method: 'DELETE', url: '/sandbox/control/faults' });
    expect((await refreshWith(app, refresh_token)).statusCode).toBe(200);
  });

  it('strikes before authentication', async () => {
    const app = await sandbox();
    await setFaults(app, { rules: [{ type: 'server-error', every: 1, statuses: [502] }] });
    expect((await getMe(app)).statusCode).toBe(502);
    expect((await app.inject('/sandbox/v1/no-such-endpoint')).statusCode).toBe(502);
  });
});

describe('dropped connections', () => {
  it('closes the connection without an answer: fetch sees a network error', async () => {
    const server = await startSandboxServer({
      clients: [PUBLIC_CLIENT],
      faults: { rules: [{ type: 'drop', every: 2 }] },
    });
    servers.push(server);

    const first = await fetch(`${server.url}/v1/me`);
    expect(first.status).toBe(401);
    await expect(fetch(`${server.url}/v1/me`)).rejects.toThrow(TypeError);
    const third = await fetch(`${server.url}/v1/me`);
    expect(third.status).toBe(401);
  });

  it('fails in-process requests (inject) the same way', async () => {
    const app = await sandbox({ faults: { rules: [{ type: 'drop', every: 1 }] } });
    await expect(app.inject('/sandbox/v1/me')).rejects.toMatchObject({ code: 'LIGHT_ECONNRESET' });
  });

  it('drops token requests too', async () => {
    const server = await startSandboxServer({
      clients: [PUBLIC_CLIENT],
      faults: { rules: [{ type: 'drop', rate: 1, path: '/accounts/api/token' }] },
    });
    servers.push(server);

    const token = fetch(`${server.url}/accounts/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=x&client_id=earshot-demo',
    });

    await expect(token).rejects.toThrow(TypeError);
    expect((await fetch(`${server.url}/v1/me`)).status).toBe(401);
  });
});

describe('scoping', () => {
  it('limits a fault to a path prefix, on segment boundaries', async () => {
    const app = await sandbox();
    const { access_token } = await connect(app);
    await setFaults(app, { rules: [{ type: 'server-error', every: 1, path: '/v1/me/player' }] });
    const get = (path: string) =>
      app.inject({ url: `/sandbox${path}`, headers: { authorization: `Bearer ${access_token}` } });

    expect((await get('/v1/me')).statusCode).toBe(200);
    expect((await get('/v1/me/player')).statusCode).toBe(500);
    expect((await get('/v1/me/player/devices?x=1')).statusCode).toBe(502);
    expect((await get('/v1/me/playerx')).statusCode).toBe(404);
  });

  it('limits a fault to one app, known by its access token or its client id', async () => {
    const app = await sandbox();
    const demo = await connect(app);
    const dev = await connect(app, { clientId: DEVELOPMENT_CLIENT.id });
    await setFaults(app, {
      rules: [{ type: 'rate-limit', every: 1, clientId: DEVELOPMENT_CLIENT.id }],
    });

    expect((await getMe(app, `Bearer ${demo.access_token}`)).statusCode).toBe(200);
    expect((await getMe(app, `Bearer ${dev.access_token}`)).statusCode).toBe(429);
    expect((await getMe(app)).statusCode).toBe(401);
    expect((await refreshWith(app, demo.refresh_token)).statusCode).toBe(200);
    const devRefresh = await requestToken(app, {
      grant_type: 'refresh_token',
      refresh_token: dev.refresh_token,
      client_id: DEVELOPMENT_CLIENT.id,
    });
    expect(devRefresh.statusCode).toBe(429);
  });

  it('combines path and client scopes', async () => {
    const app = await sandbox();
    const dev = await connect(app, { clientId: DEVELOPMENT_CLIENT.id });
    await setFaults(app, {
      rules: [
        {
          type: 'server-error',
          every: 1,
          path: '/accounts/api/token',
          clientId: DEVELOPMENT_CLIENT.id,
        },
      ],
    });

    expect((await getMe(app, `Bearer ${dev.access_token}`)).statusCode).toBe(200);
    const refreshed = await requestToken(app, {
      grant_type: 'refresh_token',
      refresh_token: dev.refresh_token,
      client_id: DEVELOPMENT_CLIENT.id,
    });
    expect(refreshed.statusCode).toBe(500);
  });
});

describe('configuration', () => {
  it('reports the configuration with defaults filled in, and clears it', async () => {
    const app = await sandbox();
    const described = await setFaults(app, {
      rules: [
        { type: 'latency', ms: 10 },
        { type: 'server-error', rate: 0.1 },
        { type: 'drop', every: 50, clientId: 'earshot-demo' },
      ],
    });

    expect(described).toEqual({
      seed: 1,
      rules: [
        { type: 'latency', ms: 10, jitterMs: 0 },
        { type: 'server-error', rate: 0.1, statuses: [500, 502, 503] },
        { type: 'drop', every: 50, clientId: 'earshot-demo' },
      ],
    });
    const cleared = await app.inject({ method: 'DELETE', url: '/sandbox/control/faults' });
    expect(cleared.statusCode).toBe(204);
    const state = (await app.inject('/sandbox/control/state')).json<{ faults: unknown }>();
    expect(state.faults).toEqual({ seed: 1, rules: [] });
  });

  it('accepts faults as a plugin option and refuses invalid ones at start-up', async () => {
    const app = await sandbox({ faults: { rules: [{ type: 'server-error', every: 1 }] } });
    expect((await getMe(app)).statusCode).toBe(500);

    await expect(buildSandbox({ faults: { rules: [{ type: 'drop', every: 0 }] } })).rejects.toThrow(
      /invalid faults/,
    );
  });
});
