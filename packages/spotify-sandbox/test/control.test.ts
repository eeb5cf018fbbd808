import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxClock } from '../src/clock';
import { startSandboxServer } from '../src/main';
import type { SandboxOptions } from '../src/plugin';
import {
  authorizeParams,
  buildSandbox,
  connect,
  DEVELOPMENT_CLIENT,
  FREE_ACCOUNT,
  getMe,
  pkcePair,
  postForm,
  PREMIUM_ACCOUNT,
  PUBLIC_CLIENT,
  REDIRECT_URI,
  requestToken,
  type TokenResponse,
} from './helpers';

const T0 = Date.UTC(2026, 2, 1, 12);

const apps: FastifyInstance[] = [];
async function sandbox(options: Partial<SandboxOptions> = {}) {
  const app = await buildSandbox({ control: { enabled: true }, ...options });
  apps.push(app);
  return app;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function control(
  app: FastifyInstance,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url: `/sandbox/control${path}`,
    headers,
    ...(body !== undefined && { payload: body as object }),
  });
}

function refresh(app: FastifyInstance, refreshToken: string, clientId = PUBLIC_CLIENT.id) {
  return requestToken(app, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
  });
}

describe('control API guard', () => {
  it('is absent unless enabled (a mounted sandbox keeps it off by default)', async () => {
    const app = await buildSandbox();
    apps.push(app);

    for (const [method, path] of [
      ['GET', '/state'],
      ['PUT', '/faults'],
      ['POST', '/authorize'],
    ] as const) {
      expect((await control(app, method, path, {})).statusCode).toBe(404);
    }
  });

  it('answers 404 when explicitly disabled, even with a token', async () => {
    const app = await sandbox({ control: { enabled: false, token: 'control-token-123456' } });
    const response = await control(app, 'GET', '/state', undefined, {
      authorization: 'Bearer control-token-123456',
    });
    expect(response.statusCode).toBe(404);
  });

  it('requires the bearer token when one is set', async () => {
    const token = 'control-token-123456';
    const app = await sandbox({ control: { enabled: true, token } });

    const missing = await control(app, 'GET', '/state');
    const wrong = await control(app, 'GET', '/state', undefined, {
      authorization: 'Bearer control-token-654321',
    });
    const right = await control(app, 'GET', '/state', undefined, {
      authorization: `Bearer ${token}`,
    });

    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(missing.json()).toEqual({ detail: expect.stringContaining('token') });
    expect(wrong.statusCode).toBe(401);
    expect(right.statusCode).toBe(200);
  });

  it('guards every route, unknown ones included', async () => {
    const app = await sandbox({ control: { enabled: true, token: 'control-token-123456' } });
    expect((await control(app, 'POST', '/clock', { action: 'freeze' })).statusCode).toBe(401);
    expect((await control(app, 'GET', '/nothing-here')).statusCode).toBe(401);
  });

  it('refuses an empty token at start-up', async () => {
    await expect(buildSandbox({ control: { enabled: true, token: '' } })).rejects.toThrow(
      /control.token/,
    );
  });

  it('is on, without a token, in the standalone server', async () => {
    const server = await startSandboxServer({ clients: [PUBLIC_CLIENT] });
    try {
      const response = await fetch(`${server.url}/control/state`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
    } finally {
      await server.close();
    }
  });
});

describe('GET /control/state', () => {
  it('reports the clock, faults, token lifetime and app modes', async () => {
    const app = await sandbox({ clock: new SandboxClock({ at: T0, frozen: true }) });

    const response = await control(app, 'GET', '/state');

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      clock: { now: '2026-03-01T12:00:00.000Z', frozen: true },
      faults: { seed: 1, rules: [] },
      tokens: { accessTokenTtlSec: 3600 },
      clients: [
        { id: 'earshot-demo', mode: 'extended' },
        { id: 'server-app', mode: 'extended' },
        { id: 'dev-app', mode: 'development' },
      ],
    });
  });
});

describe('validation', () => {
  it.each([
    ['an unknown fault type', 'PUT', '/faults', { rules: [{ type: 'teapot' }] }],
    ['a rate above 1', 'PUT', '/faults', { rules: [{ type: 'drop', rate: 1.5 }] }],
    [
      'a fault with two triggers',
      'PUT',
      '/faults',
      { rules: [{ type: 'drop', rate: 1, every: 2 }] },
    ],
    ['an unknown field', 'PUT', '/faults', { rules: [], sede: 3 }],
    [
      'a relative path scope',
      'PUT',
      '/faults',
      { rules: [{ type: 'drop', every: 1, path: 'v1' }] },
    ],
    ['an unknown clock action', 'POST', '/clock', { action: 'rewind' }],
    ['a negative advance', 'POST', '/clock', { action: 'advance', ms: -5 }],
    ['a set without an instant', 'POST', '/clock', { action: 'set' }],
    ['an instant without a zone', 'POST', '/clock', { action: 'set', at: '2026-03-01T12:00' }],
    ['a zero token lifetime', 'PUT', '/tokens', { accessTokenTtlSec: 0 }],
    ['an unknown mode', 'PUT', '/clients/earshot-demo/mode', { mode: 'quota' }],
    ['a consent without an account', 'POST', '/authorize', { client_id: 'x', redirect_uri: 'y' }],
  ] as const)('answers 400 with a detail for %s', async (_case, method, path, body) => {
    const app = await sandbox();

    const response = await control(app, method, path, body);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: expect.any(String) });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const app = await sandbox();
    const response = await app.inject({
      method: 'PUT',
      url: '/sandbox/control/faults',
      headers: { 'content-type': 'application/json' },
      payload: '{"rules": [',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: expect.any(String) });
  });

  it('answers 404 with a detail for an unknown route', async () => {
    const app = await sandbox();
    const response = await control(app, 'GET', '/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found' });
  });
});

describe('clock control', () => {
  it('freezes, advances, sets and unfreezes the clock', async () => {
    const app = await sandbox();

    const frozen = await control(app, 'POST', '/clock', {
      action: 'freeze',
      at: '2026-03-01T12:00:00Z',
    });
    expect(frozen.json()).toEqual({ now: '2026-03-01T12:00:00.000Z', frozen: true });

    const advanced = await control(app, 'POST', '/clock', { action: 'advance', ms: 90_000 });
    expect(advanced.json()).toEqual({ now: '2026-03-01T12:01:30.000Z', frozen: true });

    const set = await control(app, 'POST', '/clock', {
      action: 'set',
      at: '2026-03-01T14:00:00+01:00',
    });
    expect(set.json()).toEqual({ now: '2026-03-01T13:00:00.000Z', frozen: true });

    const running = await control(app, 'POST', '/clock', { action: 'unfreeze' });
    const { now, frozen: isFrozen } = running.json<{ now: string; frozen: boolean }>();
    expect(isFrozen).toBe(false);
    expect(Date.parse(now) - Date.UTC(2026, 2, 1, 13)).toBeLessThan(5000);
  });

  it('expires access tokens as the clock advances', async () => {
    const app = await sandbox({ clock: new SandboxClock({ at: T0, frozen: true }) });
    const { access_token } = await connect(app);

    await control(app, 'POST', '/clock', { action: 'advance', ms: 3599_000 });
    expect((await getMe(app, `Bearer ${access_token}`)).statusCode).toBe(200);

    await control(app, 'POST', '/clock', { action: 'advance', ms: 1000 });
    const expired = await getMe(app, `Bearer ${access_token}`);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ error: { status: 401, message: 'The access token expired' } });
  });

  it('expires refresh tokens when the clock is set six months on', async () => {
    const app = await sandbox({ clock: new SandboxClock({ at: T0, frozen: true }) });
    const { refresh_token } = await connect(app);

    await control(app, 'POST', '/clock', { action: 'set', at: '2026-09-01T12:00:00Z' });
    const response = await refresh(app, refresh_token);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Refresh token expired',
    });
  });

  it('keeps time still while frozen', async () => {
    const app = await sandbox();
    await control(app, 'POST', '/clock', { action: 'freeze' });
    const first = (await control(app, 'GET', '/state')).json<{ clock: { now: string } }>();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = (await control(app, 'GET', '/state')).json<{ clock: { now: string } }>();
    expect(second.clock.now).toBe(first.clock.now);
  });
});

describe('token controls', () => {
  it('shortens the lifetime of tokens issued afterwards', async () => {
    const clock = new SandboxClock({ at: T0, frozen: true });
    const app = await sandbox({ clock });
    const before = await connect(app);

    const response = await control(app, 'PUT', '/tokens', { accessTokenTtlSec: 60 });
    expect(response.json()).toEqual({ accessTokenTtlSec: 60 });
    const after = await connect(app);
    const refreshed = (await refresh(app, before.refresh_token)).json<TokenResponse>();

    expect(after.expires_in).toBe(60);
    expect(refreshed.expires_in).toBe(60);
    clock.advance(60_000);
    expect((await getMe(app, `Bearer ${after.access_token}`)).statusCode).toBe(401);
    expect((await getMe(app, `Bearer ${before.access_token}`)).statusCode).toBe(200);
  });

  it('expires every access token now, leaving refresh tokens working', async () => {
    const app = await sandbox();
    const first = await connect(app);
    const second = await connect(app, { account: FREE_ACCOUNT });

    const response = await control(app, 'POST', '/tokens/expire');

    expect(response.json()).toEqual({ expired: 2 });
    for (const tokens of [first, second]) {
      const me = await getMe(app, `Bearer ${tokens.access_token}`);
      expect(me.json()).toEqual({ error: { status: 401, message: 'The access token expired' } });
    }
    expect((await refresh(app, first.refresh_token)).statusCode).toBe(200);
  });
});

describe('revocation', () => {
  it("revokes an account's refresh and access tokens", async () => {
    const app = await sandbox();
    const tokens = await connect(app);
    const other = await connect(app, { account: FREE_ACCOUNT });

    const response = await control(app, 'POST', `/accounts/${PREMIUM_ACCOUNT}/revoke`);

    expect(response.json()).toEqual({ revoked: 1 });
    const refreshed = await refresh(app, tokens.refresh_token);
    expect(refreshed.statusCode).toBe(400);
    expect(refreshed.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Refresh token revoked',
    });
    const me = await getMe(app, `Bearer ${tokens.access_token}`);
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual({ error: { status: 401, message: 'Invalid access token' } });
    expect((await getMe(app, `Bearer ${other.access_token}`)).statusCode).toBe(200);
    expect((await refresh(app, other.refresh_token)).statusCode).toBe(200);
  });

  it('revokes the grants of one app only when asked', async () => {
    const app = await sandbox();
    const demo = await connect(app);
    const dev = await connect(app, { clientId: DEVELOPMENT_CLIENT.id });

    const response = await control(app, 'POST', `/accounts/${PREMIUM_ACCOUNT}/revoke`, {
      client_id: DEVELOPMENT_CLIENT.id,
    });

    expect(response.json()).toEqual({ revoked: 1 });
    expect((await refresh(app, dev.refresh_token, DEVELOPMENT_CLIENT.id)).statusCode).toBe(400);
    expect((await getMe(app, `Bearer ${dev.access_token}`)).statusCode).toBe(401);
    expect((await getMe(app, `Bearer ${demo.access_token}`)).statusCode).toBe(200);
    expect((await refresh(app, demo.refresh_token)).statusCode).toBe(200);
  });

  it('makes the user consent again, after which a new connection works', async () => {
    const app = await sandbox();
    await connect(app);
    const pickAccount = () =>
      postForm(app, '/sandbox/accounts/authorize', {
        ...authorizeParams(),
        account: PREMIUM_ACCOUNT,
      });
    expect((await pickAccount()).statusCode).toBe(303);

    await control(app, 'POST', `/accounts/${PREMIUM_ACCOUNT}/revoke`);

    const consent = await pickAccount();
    expect(consent.statusCode).toBe(200);
    expect(consent.headers['content-type']).toMatch(/^text\/html/);
    const fresh = await connect(app);
    expect((await getMe(app, `Bearer ${fresh.access_token}`)).statusCode).toBe(200);
    expect((await refresh(app, fresh.refresh_token)).statusCode).toBe(200);
  });

  it('outlives a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'spotify-sandbox-'));
    try {
      const before = await buildSandbox({ dataDir, control: { enabled: true } });
      const tokens = await connect(before);
      await control(before, 'POST', `/accounts/${PREMIUM_ACCOUNT}/revoke`);
      await before.close();

      const after = await sandbox({ dataDir });
      const refreshed = await refresh(after, tokens.refresh_token);

      expect(refreshed.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Refresh token revoked',
      });
      expect((await getMe(after, `Bearer ${tokens.access_token}`)).statusCode).toBe(401);
    } finally {
      await Promise.all(apps.splice(0).map((app) => app.close()));
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('answers 404 for an unknown account or client', async () => {
    const app = await sandbox();
    const account = await control(app, 'POST', '/accounts/nobody/revoke');
    const client = await control(app, 'POST', `/accounts/${PREMIUM_ACCOUNT}/revoke`, {
      client_id: 'nobody',
    });
    expect(account.statusCode).toBe(404);
    expect(account.json()).toEqual({ detail: 'No account "nobody"' });
    expect(client.statusCode).toBe(404);
  });
});

describe('mode switching', () => {
  it("changes /v1/me's shape for tokens already issued", async () => {
    const app = await sandbox();
    const { access_token } = await connect(app);
    const extended = (await getMe(app, `Bearer ${access_token}`)).json<Record<string, unknown>>();
    expect(extended).toHaveProperty('email');
    expect(extended).toHaveProperty('product');

    const response = await control(app, 'PUT', `/clients/${PUBLIC_CLIENT.id}/mode`, {
      mode: 'development',
    });
    expect(response.json()).toEqual({ id: PUBLIC_CLIENT.id, mode: 'development' });
    const development = (await getMe(app, `Bearer ${access_token}`)).json<
      Record<string, unknown>
    >();
    expect(development).not.toHaveProperty('email');
    expect(development).not.toHaveProperty('product');
    expect(development).not.toHaveProperty('followers');

    await control(app, 'PUT', `/clients/${PUBLIC_CLIENT.id}/mode`, { mode: 'extended' });
    expect((await getMe(app, `Bearer ${access_token}`)).json()).toEqual(extended);
  });

  it('answers 404 for an unknown client', async () => {
    const app = await sandbox();
    const response = await control(app, 'PUT', '/clients/nobody/mode', { mode: 'extended' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'No client "nobody"' });
  });
});

describe('POST /control/authorize (headless consent)', () => {
  it('returns a redirect with a code the app exchanges at the token endpoint', async () => {
    const app = await sandbox();
    const { verifier, challenge } = pkcePair();

    const response = await control(app, 'POST', '/authorize', {
      client_id: PUBLIC_CLIENT.id,
      redirect_uri: REDIRECT_URI,
      account: FREE_ACCOUNT,
      scope: 'user-read-private user-read-email',
      state: 'demo-start',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });

    expect(response.statusCode).toBe(200);
    const redirectTo = new URL(response.json<{ redirect_to: string }>().redirect_to);
    expect(`${redirectTo.origin}${redirectTo.pathname}`).toBe(REDIRECT_URI);
    expect(redirectTo.searchParams.get('state')).toBe('demo-start');
    const tokens = await requestToken(app, {
      grant_type: 'authorization_code',
      code: redirectTo.searchParams.get('code') ?? '',
      redirect_uri: REDIRECT_URI,
      client_id: PUBLIC_CLIENT.id,
      code_verifier: verifier,
    });
    expect(tokens.statusCode).toBe(200);
    const { access_token, scope } = tokens.json<TokenResponse>();
    expect(scope).toBe('user-read-private user-read-email');
    expect((await getMe(app, `Bearer ${access_token}`)).json()).toMatchObject({
      id: FREE_ACCOUNT,
      product: 'free',
    });
  });

  it('refuses what the authorize page refuses', async () => {
    const app = await sandbox();
    const base = {
      client_id: PUBLIC_CLIENT.id,
      redirect_uri: REDIRECT_URI,
      account: PREMIUM_ACCOUNT,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    };

    const badRedirect = await control(app, 'POST', '/authorize', {
      ...base,
      redirect_uri: 'http://evil.test/callback',
    });
    expect(badRedirect.statusCode).toBe(400);
    expect(badRedirect.json()).toEqual({ detail: 'INVALID_CLIENT: Invalid redirect URI' });

    const badScope = await control(app, 'POST', '/authorize', { ...base, scope: 'everything' });
    expect(badScope.json()).toEqual({ detail: 'INVALID_SCOPE: Illegal scope' });

    const noPkce = await control(app, 'POST', '/authorize', {
      ...base,
      code_challenge: undefined,
      code_challenge_method: undefined,
    });
    expect(noPkce.statusCode).toBe(400);
    expect(noPkce.json()).toMatchObject({
      detail: expect.stringContaining('invalid_request'),
      redirect_to: expect.stringContaining('error=invalid_request'),
    });

    const noAccount = await control(app, 'POST', '/authorize', { ...base, account: 'nobody' });
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json()).toEqual({ detail: 'No account "nobody"' });
  });
});
