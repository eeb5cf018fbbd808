import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld } from '../src/world/world';
import type { SandboxClient } from '../src/plugin';
import {
  CONFIDENTIAL_CLIENT,
  PUBLIC_CLIENT,
  REDIRECT_URI,
  basicAuth,
  buildSandbox,
  requestToken,
} from './helpers';

const world = createWorld();
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildSandbox({
    world,
    clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT, DEVELOPMENT_CONFIDENTIAL_CLIENT],
  });
});
afterAll(() => app.close());

/** A confidential client of an app in Development Mode. */
const DEVELOPMENT_CONFIDENTIAL_CLIENT: SandboxClient = {
  id: 'dev-server-app',
  secret: 'dev-server-app-secret',
  redirectUris: [REDIRECT_URI],
  mode: 'development',
};

async function appToken(client: SandboxClient = CONFIDENTIAL_CLIENT): Promise<string> {
  const response = await requestToken(
    app,
    { grant_type: 'client_credentials' },
    { authorization: basicAuth(client.id, client.secret ?? '') },
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

  it('reads public playlists, finds no private one, and in Development Mode lists no items', async () => {
    const publicList = world.playlists.find((playlist) => playlist.public)!;
    const privateList = world.playlists.find((playlist) => !playlist.public)!;
    for (const client of [CONFIDENTIAL_CLIENT, DEVELOPMENT_CONFIDENTIAL_CLIENT]) {
      const authorization = `Bearer ${await appToken(client)}`;
      const get = (url: string) => app.inject({ url, headers: { authorization } });
      const extended = client.mode === 'extended';

      const playlist = await get(`/sandbox/v1/playlists/${publicList.id}`);
      expect(playlist.statusCode, client.id).toBe(200);
      const body = playlist.json<{ id: string; items?: unknown; tracks?: unknown }>();
      expect(body.id).toBe(publicList.id);
      const items = await get(`/sandbox/v1/playlists/${publicList.id}/items`);
      // Development Mode lists a playlist's items only to its owner and collaborators.
      expect(items.statusCode, client.id).toBe(extended ? 200 : 403);

      for (const path of ['', '/items']) {
        const hidden = await get(`/sandbox/v1/playlists/${privateList.id}${path}`);
        expect(hidden.statusCode, `${client.id} ${path}`).toBe(404);
        expect(hidden.json()).toEqual({ error: { status: 404, message: 'Not found.' } });
      }
    }
  });
});
