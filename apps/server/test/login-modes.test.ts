import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('login against a Development Mode Spotify app', () => {
  it('stores e-mail and plan as unknown', async () => {
    harness = await startHarness({ mode: 'development' });
    const { cookie } = await harness.login('maralindqvist');
    const response = await harness.app.inject({ url: '/api/user/me', headers: { cookie } });
    expect(response.json()).toMatchObject({
      name: 'Mara Lindqvist',
      email: null,
      subscribed: null,
      is_admin: false,
    });
  });
});

describe('login when Spotify cannot be reached after the code exchange', () => {
  it('reports it on the error page instead of failing silently', async () => {
    harness = await startHarness({ env: { SPOTIFY_API_URL: 'http://127.0.0.1:9/v1' } });
    const callback = await harness.returnFromSpotify(await harness.startLogin(), 'maralindqvist');
    const target = new URL(String(callback.headers.location), 'http://x');
    expect(target.pathname).toBe('/error');
    expect(target.searchParams.get('message')).toBe(
      'Could not connect to Spotify: Spotify could not be reached',
    );
  });
});
