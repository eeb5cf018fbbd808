import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock';
import type { World } from '../src/world/model';
import { createWorld } from '../src/world/world';
import { readZip } from './exports-zip';
import { buildSandbox } from './helpers';

const NOW = Date.UTC(2026, 2, 1, 12);
/** An account with a short history, to keep the downloads quick. */
const ACCOUNT = 'camilledubois';

let world: World;
let app: FastifyInstance;

beforeAll(async () => {
  world = createWorld();
  app = await buildSandbox({ world, clock: new ManualClock(NOW) });
});

afterAll(async () => {
  await app.close();
});

function get(url: string) {
  return app.inject({ method: 'GET', url });
}

describe('Privacy → Download your data', () => {
  it('asks to choose an account first, without scripts', async () => {
    const response = await get('/sandbox/privacy');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    const page = response.body;
    expect(page).toContain('<link rel="stylesheet" href="assets/sandbox.css" />');
    expect(page).toContain('<form method="get" action="privacy">');
    expect(page).not.toContain('<script');
    for (const account of world.accounts) {
      expect(page).toContain(`name="account" value="${account.id}"`);
    }
  });

  it("lists the chosen account's downloads and says no login is needed", async () => {
    const response = await get(`/sandbox/privacy?account=${ACCOUNT}`);
    expect(response.statusCode).toBe(200);
    const page = response.body;
    const account = world.account(ACCOUNT);
    expect(page).toContain(account?.displayName);
    expect(page).toContain(`action="exports/${ACCOUNT}/extended-streaming-history.zip"`);
    expect(page).toContain(`action="exports/${ACCOUNT}/account-data.zip"`);
    expect(page.match(/name="variant" value="legacy"/g)).toHaveLength(2);
    expect(page).not.toContain('<script');
    expect(page).toContain('need no');
  });

  it('answers 404 for an unknown account', async () => {
    const response = await get('/sandbox/privacy?account=nobody');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('That account does not exist');
  });
});

describe('export downloads', () => {
  it('streams the extended history as my_spotify_data.zip, as of the sandbox clock', async () => {
    const response = await get(`/sandbox/exports/${ACCOUNT}/extended-streaming-history.zip`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="my_spotify_data.zip"',
    );
    const entries = readZip(response.rawPayload);
    const files = entries.filter((entry) => entry.name.endsWith('.json'));
    expect(files[0]?.name).toMatch(
      /^Spotify Extended Streaming History\/Streaming_History_Audio_\d{4}-\d{4}_0\.json$/,
    );
    const rows = files.flatMap(
      (entry) => JSON.parse(entry.data.toString('utf8')) as { spotify_track_uri: unknown }[],
    );
    const music = rows.filter((row) => row.spotify_track_uri !== null);
    expect(music).toHaveLength([...world.history(ACCOUNT, NOW)].length);
  }, 60_000);

  it('serves the legacy variant on request', async () => {
    const response = await get(
      `/sandbox/exports/${ACCOUNT}/extended-streaming-history.zip?variant=legacy`,
    );
    expect(response.statusCode).toBe(200);
    const names = readZip(response.rawPayload).map((entry) => entry.name);
    expect(names).toContain('MyData/endsong_0.json');
  }, 60_000);

  it('grows the history with the scale knob', async () => {
    const response = await get(
      `/sandbox/exports/${ACCOUNT}/extended-streaming-history.zip?scale=2&years=2`,
    );
    expect(response.statusCode).toBe(200);
    const rows = readZip(response.rawPayload)
      .filter((entry) => entry.name.endsWith('.json'))
      .flatMap(
        (entry) => JSON.parse(entry.data.toString('utf8')) as { spotify_track_uri: unknown }[],
      );
    const scaled = createWorld({
      seed: world.seed,
      sizes: { ...world.sizes, dailyPlaysScale: 2, historyYears: 2 },
    });
    const plays = [...scaled.history(ACCOUNT, NOW)].length;
    expect(rows.filter((row) => row.spotify_track_uri !== null)).toHaveLength(plays);
  }, 60_000);

  it('streams the account data', async () => {
    const response = await get(`/sandbox/exports/${ACCOUNT}/account-data.zip`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="my_spotify_data.zip"',
    );
    const entries = readZip(response.rawPayload);
    const identity = entries.find((entry) => entry.name === 'Spotify Account Data/Identity.json');
    expect(JSON.parse(identity?.data.toString('utf8') ?? '{}')).toMatchObject({
      imageUrl: `http://sandbox.test/sandbox/images/avatars/64/${ACCOUNT}`,
    });
    const legacy = await get(`/sandbox/exports/${ACCOUNT}/account-data.zip?variant=legacy`);
    expect(readZip(legacy.rawPayload).map((entry) => entry.name)).toContain(
      'MyData/StreamingHistory0.json',
    );
  }, 60_000);

  it.each([
    ['an unknown account', '/sandbox/exports/nobody/account-data.zip', 404],
    ['an unknown variant', `/sandbox/exports/${ACCOUNT}/account-data.zip?variant=old`, 400],
    [
      'a repeated variant',
      `/sandbox/exports/${ACCOUNT}/extended-streaming-history.zip?variant=legacy&variant=current`,
      400,
    ],
    ['a zero scale', `/sandbox/exports/${ACCOUNT}/extended-streaming-history.zip?scale=0`, 400],
    ['a huge scale', `/sandbox/exports/${ACCOUNT}/extended-streaming-history.zip?scale=1000`, 400],
    [
      'fractional years',
      `/sandbox/exports/${ACCOUNT}/extended-streaming-history.zip?years=1.5`,
      400,
    ],
  ])(
    'refuses %s: a page for browsers, {"detail"} for other clients',
    async (_case, url, status) => {
      const browser = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(browser.statusCode).toBe(status);
      expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');
      const client = await get(url);
      expect(client.statusCode).toBe(status);
      expect(client.json()).toEqual({ detail: expect.any(String) });
    },
  );
});
