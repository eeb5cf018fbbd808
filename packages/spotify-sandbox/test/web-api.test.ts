import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock';
import {
  buildSandbox,
  connect,
  DEVELOPMENT_CLIENT,
  FREE_ACCOUNT,
  getMe,
  pngSize,
  PREMIUM_ACCOUNT,
  PUBLIC_URL,
} from './helpers';

const apps: FastifyInstance[] = [];
async function sandbox(options: Parameters<typeof buildSandbox>[0] = {}) {
  const app = await buildSandbox(options);
  apps.push(app);
  return app;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

const avatars = (id: string) => [
  { url: `${PUBLIC_URL}/images/avatars/64/${id}`, height: 64, width: 64 },
  { url: `${PUBLIC_URL}/images/avatars/300/${id}`, height: 300, width: 300 },
];

describe('GET /v1/me', () => {
  it('returns the full PrivateUserObject to an app in Extended Quota Mode', async () => {
    const app = await sandbox();
    const { access_token } = await connect(app, { account: PREMIUM_ACCOUNT });

    const response = await getMe(app, `Bearer ${access_token}`);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({
      account_id: 'Qm7tR2vLx9',
      country: 'SE',
      display_name: 'Mara Lindqvist',
      email: 'mara.lindqvist@example.com',
      explicit_content: { filter_enabled: false, filter_locked: false },
      external_urls: { spotify: 'https://open.spotify.com/user/maralindqvist' },
      followers: { href: null, total: 214 },
      href: `${PUBLIC_URL}/v1/users/maralindqvist`,
      id: PREMIUM_ACCOUNT,
      images: avatars(PREMIUM_ACCOUNT),
      product: 'premium',
      type: 'user',
      uri: 'spotify:user:maralindqvist',
    });
  });

  it('reports free accounts as product "free"', async () => {
    const app = await sandbox();
    const { access_token } = await connect(app, { account: FREE_ACCOUNT });

    const me = (await getMe(app, `Bearer ${access_token}`)).json<{ product: string }>();

    expect(me.product).toBe('free');
  });

  it('leaves out e-mail, plan, country, followers and explicit content in Development Mode', async () => {
    const app = await sandbox();
    const { access_token } = await connect(app, { clientId: DEVELOPMENT_CLIENT.id });

    const response = await getMe(app, `Bearer ${access_token}`);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      account_id: 'Qm7tR2vLx9',
      display_name: 'Mara Lindqvist',
      external_urls: { spotify: 'https://open.spotify.com/user/maralindqvist' },
      href: `${PUBLIC_URL}/v1/users/maralindqvist`,
      id: PREMIUM_ACCOUNT,
      images: avatars(PREMIUM_ACCOUNT),
      type: 'user',
      uri: 'spotify:user:maralindqvist',
    });
  });

  it('gives e-mail only with user-read-email and plan/country only with user-read-private', async () => {
    const app = await sandbox();
    const fields = async (scope: string) => {
      const { access_token } = await connect(app, { scope });
      return Object.keys((await getMe(app, `Bearer ${access_token}`)).json<object>());
    };

    const emailOnly = await fields('user-read-email');
    expect(emailOnly).toContain('email');
    expect(emailOnly).not.toContain('product');
    expect(emailOnly).not.toContain('country');

    const privateOnly = await fields('user-read-private');
    expect(privateOnly).not.toContain('email');
    expect(privateOnly).toEqual(expect.arrayContaining(['product', 'country', 'explicit_content']));

    const none = await fields('');
    expect(none).not.toEqual(expect.arrayContaining(['email']));
    expect(none).toEqual(expect.arrayContaining(['id', 'display_name', 'images', 'followers']));
  });

  it('answers 401 "No token provided" without a token', async () => {
    const app = await sandbox();

    const response = await getMe(app);

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { status: 401, message: 'No token provided' } });
  });

  it('answers 401 "Invalid access token" for an unknown token', async () => {
    const app = await sandbox();

    const response = await getMe(app, 'Bearer not-a-token');

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { status: 401, message: 'Invalid access token' } });
  });

  it('answers 400 for another authentication scheme', async () => {
    const app = await sandbox();

    const response = await getMe(app, 'Basic dXNlcjpwYXNz');

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { status: 400, message: 'Only valid bearer authentication supported' },
    });
  });

  it('answers 401 "The access token expired" once the clock passes the lifetime', async () => {
    const clock = new ManualClock(Date.UTC(2026, 3, 1, 8));
    const app = await sandbox({ clock, accessTokenTtlSec: 600 });
    const tokens = await connect(app);
    expect(tokens.expires_in).toBe(600);

    clock.advance(599_999);
    expect((await getMe(app, `Bearer ${tokens.access_token}`)).statusCode).toBe(200);
    clock.advance(1);
    const response = await getMe(app, `Bearer ${tokens.access_token}`);

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      error: { status: 401, message: 'The access token expired' },
    });
  });
});

describe('the rest of /v1', () => {
  it('answers 404 "Service not found" for unknown routes', async () => {
    const app = await sandbox();

    for (const url of ['/sandbox/v1/nothing-here', '/sandbox/v1/me/nothing', '/sandbox/v1']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { status: 404, message: 'Service not found' } });
    }
  });
});

describe('images', () => {
  it('serves a deterministic PNG avatar for each size the API lists', async () => {
    const app = await sandbox();

    const first = await app.inject({ url: `/sandbox/images/avatars/300/${PREMIUM_ACCOUNT}` });
    const second = await app.inject({ url: `/sandbox/images/avatars/300/${PREMIUM_ACCOUNT}` });
    const other = await app.inject({ url: `/sandbox/images/avatars/300/${FREE_ACCOUNT}` });
    const small = await app.inject({ url: `/sandbox/images/avatars/64/${PREMIUM_ACCOUNT}` });

    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(pngSize(first.rawPayload)).toEqual({ width: 300, height: 300 });
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(other.rawPayload.equals(first.rawPayload)).toBe(false);
    expect(pngSize(small.rawPayload)).toEqual({ width: 64, height: 64 });
  });

  it('answers 404 for unknown accounts and sizes', async () => {
    const app = await sandbox();

    for (const url of [
      '/sandbox/images/avatars/300/nobody',
      `/sandbox/images/avatars/128/${PREMIUM_ACCOUNT}`,
      `/sandbox/images/avatars/300/${PREMIUM_ACCOUNT}.png`,
    ]) {
      expect((await app.inject({ url })).statusCode).toBe(404);
    }
  });
});
