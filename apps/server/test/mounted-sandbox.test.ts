import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import type { Database } from '../src/db/client';
import { createMetrics, createSpotifyHttp } from '../src/observability/metrics';
import { createTokenCipher } from '../src/services/token-cipher';
import { SpotifyClient } from '../src/spotify/client';
import { freshDatabase } from './support/database';

/** Earshot with no Spotify app configured: the demo sandbox is mounted at /sandbox. */
let app: FastifyInstance;
let config: Config;
let database: Database;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'earshot-mounted-'));
  config = loadConfig({ DATA_DIR: dataDir });
  database = await freshDatabase();
  const metrics = createMetrics();
  app = await buildApp({
    config,
    db: database.db,
    changes: database.changes,
    cipher: createTokenCipher(Buffer.alloc(32, 1)),
    spotify: new SpotifyClient(config.spotify, createSpotifyHttp(metrics)),
    metrics,
  });
});
afterAll(async () => {
  await app.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the mounted demo sandbox', () => {
  it('limits its login pages and history downloads per address', async () => {
    const from = (remoteAddress: string, url = '/sandbox/privacy') =>
      app.inject({ url, remoteAddress });
    const answers = [];
    for (let i = 0; i < 120; i++) answers.push((await from('10.1.1.1')).statusCode);
    expect(new Set(answers)).toEqual(new Set([200]));
    const over = await from('10.1.1.1', '/sandbox/exports/maralindqvist/account-data.zip');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ detail: expect.stringMatching(/^Too many requests/) });
    expect((await from('10.1.1.2')).statusCode).toBe(200);
    // Its Web API is not: Earshot's own syncs call it all the time.
    expect((await from('10.1.1.1', '/sandbox/v1/me')).statusCode).toBe(401);
  });

  it("registers Earshot with a secret of this process's own: it gets a token for visitors' pages", async () => {
    const { clientId, clientSecret } = config.spotify;
    expect(clientSecret).toMatch(/^[\w-]{32}$/);
    expect(loadConfig({ DATA_DIR: dataDir }).spotify.clientSecret).not.toBe(clientSecret);
    const token = await app.inject({
      method: 'POST',
      url: '/sandbox/accounts/api/token',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    });
    expect(token.statusCode).toBe(200);
    const { access_token: accessToken } = token.json<{ access_token: string }>();
    const track = await app.inject({
      url: '/sandbox/v1/search?q=a&type=track&limit=1',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(track.statusCode).toBe(200);
  });
});
