import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock';
import {
  authorizeHeadless,
  authorizeParams,
  basicAuth,
  buildSandbox,
  CONFIDENTIAL_CLIENT,
  connect,
  DEVELOPMENT_CLIENT,
  getMe,
  pkcePair,
  PUBLIC_CLIENT,
  REDIRECT_URI,
  requestToken,
  type TokenResponse,
} from './helpers';

const apps: FastifyInstance[] = [];
async function sandbox(clock?: ManualClock) {
  const app = await buildSandbox(clock ? { clock } : {});
  apps.push(app);
  return app;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** Authorizes with PKCE and returns the code and the verifier that redeems it. */
async function pkceCode(app: FastifyInstance, clientId = PUBLIC_CLIENT.id) {
  const { verifier, challenge } = pkcePair();
  const location = await authorizeHeadless(
    app,
    authorizeParams({ client_id: clientId, code_challenge: challenge }),
  );
  return { code: location.searchParams.get('code') ?? '', verifier };
}

function exchange(app: FastifyInstance, code: string, verifier: string, extra = {}) {
  return requestToken(app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: PUBLIC_CLIENT.id,
    code_verifier: verifier,
    ...extra,
  });
}

describe('authorization_code with PKCE', () => {
  it('exchanges the code for tokens', async () => {
    const app = await sandbox();
    const { code, verifier } = await pkceCode(app);

    const response = await exchange(app, code, verifier);

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<TokenResponse>();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
      token_type: 'Bearer',
      scope: 'user-read-private user-read-email',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    expect(body.refresh_token).not.toBe(body.access_token);
  });

  it('refuses a wrong code_verifier with invalid_grant', async () => {
    const app = await sandbox();
    const { code } = await pkceCode(app);

    const response = await exchange(app, code, pkcePair().verifier);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier was incorrect',
    });
  });

  it('requires the code_verifier', async () => {
    const app = await sandbox();
    const { code } = await pkceCode(app);

    const response = await requestToken(app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: PUBLIC_CLIENT.id,
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_request',
      error_description: 'code_verifier required',
    });
  });

  it('accepts a code only once', async () => {
    const app = await sandbox();
    const { code, verifier } = await pkceCode(app);

    expect((await exchange(app, code, verifier)).statusCode).toBe(200);
    const reuse = await exchange(app, code, verifier);

    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid authorization code',
    });
  });

  it('lets codes expire after 10 minutes', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
    const app = await sandbox(clock);
    const fresh = await pkceCode(app);
    const stale = await pkceCode(app);

    clock.advance(9 * 60 * 1000);
    expect((await exchange(app, fresh.code, fresh.verifier)).statusCode).toBe(200);
    clock.advance(60 * 1000);
    const response = await exchange(app, stale.code, stale.verifier);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Authorization code expired',
    });
  });

  it('requires the same redirect_uri as the authorization', async () => {
    const app = await sandbox();
    const { code, verifier } = await pkceCode(app);

    const response = await exchange(app, code, verifier, {
      redirect_uri: 'http://app.test/other',
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid redirect URI',
    });
  });

  it("refuses another client's code", async () => {
    const app = await sandbox();
    const { code, verifier } = await pkceCode(app, DEVELOPMENT_CLIENT.id);

    const response = await exchange(app, code, verifier);

    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe('invalid_grant');
  });
});

describe('confidential clients (HTTP Basic)', () => {
  async function secretCode(app: FastifyInstance) {
    const location = await authorizeHeadless(
      app,
      authorizeParams({
        client_id: CONFIDENTIAL_CLIENT.id,
        code_challenge: undefined,
        code_challenge_method: undefined,
      }),
    );
    return location.searchParams.get('code') ?? '';
  }
  const grant = (code: string) => ({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
  });

  it('exchanges a code when the secret is right', async () => {
    const app = await sandbox();
    const code = await secretCode(app);

    const response = await requestToken(app, grant(code), {
      authorization: basicAuth(CONFIDENTIAL_CLIENT.id, CONFIDENTIAL_CLIENT.secret ?? ''),
    });

    expect(response.statusCode).toBe(200);
    const { access_token } = response.json<TokenResponse>();
    expect((await getMe(app, `Bearer ${access_token}`)).statusCode).toBe(200);
  });

  it('answers 401 invalid_client for a wrong secret or an unknown client', async () => {
    const app = await sandbox();
    const code = await secretCode(app);

    const wrongSecret = await requestToken(app, grant(code), {
      authorization: basicAuth(CONFIDENTIAL_CLIENT.id, 'guess'),
    });
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.headers['www-authenticate']).toBe('Basic realm="spotify"');
    expect(wrongSecret.json()).toEqual({
      error: 'invalid_client',
      error_description: 'Invalid client secret',
    });

    const unknown = await requestToken(app, grant(code), {
      authorization: basicAuth('nobody', 'x'),
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({
      error: 'invalid_client',
      error_description: 'Invalid client',
    });
  });

  it('needs the secret to redeem a code issued without PKCE', async () => {
    const app = await sandbox();
    const code = await secretCode(app);

    const response = await requestToken(app, { ...grant(code), client_id: CONFIDENTIAL_CLIENT.id });

    expect(response.statusCode).toBe(401);
    expect(response.json<{ error: string }>().error).toBe('invalid_client');
  });

  it('also accepts the secret as form fields and needs it again to refresh', async () => {
    const app = await sandbox();
    const code = await secretCode(app);
    const credentials = {
      client_id: CONFIDENTIAL_CLIENT.id,
      client_secret: CONFIDENTIAL_CLIENT.secret ?? '',
    };
    const tokens = (
      await requestToken(app, { ...grant(code), ...credentials })
    ).json<TokenResponse>();

    const withoutSecret = await requestToken(app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: CONFIDENTIAL_CLIENT.id,
    });
    expect(withoutSecret.statusCode).toBe(401);

    const withSecret = await requestToken(app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      ...credentials,
    });
    expect(withSecret.statusCode).toBe(200);
  });
});

describe('refresh_token', () => {
  const refresh = (app: FastifyInstance, refreshToken: string) =>
    requestToken(app, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: PUBLIC_CLIENT.id,
    });

  it('rotates: each refresh returns a new refresh token and the old one stops working', async () => {
    const app = await sandbox();
    const first = await connect(app);

    const response = await refresh(app, first.refresh_token);
    expect(response.statusCode).toBe(200);
    const second = response.json<TokenResponse>();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.scope).toBe(first.scope);
    expect((await getMe(app, `Bearer ${second.access_token}`)).statusCode).toBe(200);

    const replay = await refresh(app, first.refresh_token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid refresh token',
    });
    expect((await refresh(app, second.refresh_token)).statusCode).toBe(200);
  });

  it('refuses refresh tokens 6 months after the authorization, rotation or not', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 31, 12));
    const app = await sandbox(clock);
    let tokens = await connect(app);

    clock.advance(90 * 24 * 3600 * 1000);
    tokens = (await refresh(app, tokens.refresh_token)).json<TokenResponse>();
    clock.advance(Date.UTC(2026, 6, 31, 12) - clock.now() - 1);
    tokens = (await refresh(app, tokens.refresh_token)).json<TokenResponse>();
    clock.advance(1);
    const response = await refresh(app, tokens.refresh_token);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Refresh token expired',
    });
  });

  it("refuses another client's refresh token", async () => {
    const app = await sandbox();
    const tokens = await connect(app, { clientId: DEVELOPMENT_CLIENT.id });

    const response = await refresh(app, tokens.refresh_token);

    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe('invalid_grant');
  });
});

describe('malformed token requests', () => {
  it('names a missing or unsupported grant_type', async () => {
    const app = await sandbox();

    const missing = await requestToken(app, { client_id: PUBLIC_CLIENT.id });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'grant_type parameter is missing',
    });

    const password = await requestToken(app, { grant_type: 'password' });
    expect(password.statusCode).toBe(400);
    expect(password.json<{ error: string }>().error).toBe('unsupported_grant_type');
  });

  it('treats a JSON body as carrying no parameters', async () => {
    const app = await sandbox();
    const response = await app.inject({
      method: 'POST',
      url: '/sandbox/accounts/api/token',
      payload: { grant_type: 'refresh_token' },
    });

    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe('unsupported_grant_type');
  });

  it('refuses repeated parameters and missing ones with invalid_request', async () => {
    const app = await sandbox();
    const repeated = await app.inject({
      method: 'POST',
      url: '/sandbox/accounts/api/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=earshot-demo',
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json<{ error: string }>().error).toBe('invalid_request');

    const noToken = await requestToken(app, {
      grant_type: 'refresh_token',
      client_id: PUBLIC_CLIENT.id,
    });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json<{ error: string }>().error).toBe('invalid_request');
  });

  it('answers an unparseable body in the accounts error format', async () => {
    const app = await sandbox();
    const response = await app.inject({
      method: 'POST',
      url: '/sandbox/accounts/api/token',
      headers: { 'content-type': 'application/xml' },
      payload: '<grant_type>refresh_token</grant_type>',
    });

    expect(response.statusCode).toBe(415);
    expect(response.json<{ error: string }>().error).toBe('invalid_request');
  });
});
