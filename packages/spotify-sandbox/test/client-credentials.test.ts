import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../src/world/world';
import {
  CONFIDENTIAL_CLIENT,
  PUBLIC_CLIENT,
  basicAuth,
  buildSandbox,
  requestToken,
} from './helpers';

const world = createWorld();
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildSandbox({ world });
});
afterAll(() => app.close());

async function appToken(): Promise<string> {
  const response = await requestToken(
    app,
    { grant_type: 'client_credentials' },
    { authorization: basicAuth(CONFIDENTIAL_CLIENT.id, CONFIDENTIAL_CLIENT.secret ?? '') },
  );
  expect(response.statusCode).toBe(200);
  const body = response.json<Record<string, unknown>>();
  expect(body).toEqual({
    access_token: expect.any(String),
    token_type: 'Bearer',
    expires_in: 3600,
  });
  return String(body.access_token);
}

describe('the client_credentials grant', () => {
  it('gives a confidential client a token of its own, without a refresh token', async () => {
    await appToken();
  });

  it('refuses a public client and a wrong secret', async () => {
    const publicClient = await requestToken(app, {
      grant_type: 'client_credentials',
      client_id: PUBLIC_CLIENT.id,
    });
    expect(publicClient.statusCode).toBe(401);
    expect(publicClient.json()).toMatchObject({ error: 'invalid_client' });
    const wrongSecret = await requestToken(
      app,
      { grant_type: 'client_credentials' },
      { authorization: basicAuth(CONFIDENTIAL_CLIENT.id, 'guess') },
    );
    expect(wrongSecret.statusCode).toBe(401);
  });

  it('reads the catalogue but no user data', async () => {
    const authorization = `Bearer ${await appToken()}`;
    const track = world.tracks[0]!;
    const catalogue = await app.inject({
      url: `/sandbox/v1/tracks/${track.id}`,
      headers: { authorization },
    });
    expect(catalogue.statusCode).toBe(200);
    expect(catalogue.json()).toMatchObject({ id: track.id, name: track.name });
    for (const url of [
      '/sandbox/v1/me',
      '/sandbox/v1/me/tracks',
      '/sandbox/v1/me/player/recently-played',
    ]) {
      const response = await app.inject({ url, headers: { authorization } });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual({
        error: { status: 403, message: 'Insufficient client scope' },
      });
    }
  });
});
