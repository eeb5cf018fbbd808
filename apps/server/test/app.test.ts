import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@earshot/contract/errors';
import { startHarness, type Harness } from './support/harness';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

describe('GET /api/status', () => {
  it('answers the backend version', async () => {
    const response = await harness.app.inject({ url: '/api/status' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ version: harness.config.version });
    expect(harness.config.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('carries the security headers, with a CSP that allows the Spotify SDK script and images', async () => {
    const response = await harness.app.inject({ url: '/api/status' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' https:\/\/sdk\.scdn\.co/);
    // The service worker keeps covers for offline use: it fetches them as connections.
    expect(csp).toMatch(/connect-src [^;]*https:\/\/i\.scdn\.co/);
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('errors', () => {
  it('answers unknown API routes with a 404 detail', async () => {
    const response = await harness.app.inject({ url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'No route for GET /api/nope' });
  });

  it('answers malformed JSON with a 400 detail and no stack', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'content-type': 'application/json' },
      payload: '{"oops":',
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<ErrorBody>();
    expect(Object.keys(body)).toEqual(['detail']);
    expect(body.detail).not.toMatch(/at .*\.ts/);
  });
});

describe('cross-site requests', () => {
  it('refuses a state-changing request from another origin', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: 'Cross-site request refused' });
  });

  it('refuses an opaque (null) origin', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { origin: 'null' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('refuses what the browser marks cross-site even without an Origin', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('lets same-origin writes through', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { origin: 'http://127.0.0.1:8080', 'sec-fetch-site': 'same-origin' },
    });
    expect(response.statusCode).toBe(204);
  });
});

describe('OpenAPI', () => {
  it('publishes the contract at /api/docs', async () => {
    const json = await harness.app.inject({ url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    const document = json.json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/status',
        '/api/user/me',
        '/api/logout',
        '/api/spotify/authorize',
        '/api/spotify/callback',
        '/api/spotify/stats',
      ]),
    );
    const page = await harness.app.inject({ url: '/api/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });
});

describe('rate limiting', () => {
  it('answers 429 with a detail and Retry-After once the login budget is spent', async () => {
    let last = await harness.app.inject({
      url: '/api/spotify/authorize',
      remoteAddress: '10.9.9.9',
    });
    for (let i = 0; i < 30 && last.statusCode !== 429; i++) {
      last = await harness.app.inject({ url: '/api/spotify/authorize', remoteAddress: '10.9.9.9' });
    }
    expect(last.statusCode).toBe(429);
    expect(last.json<ErrorBody>().detail).toMatch(/Too many requests/);
    expect(last.headers['retry-after']).toBeDefined();
  });
});

describe('GET /metrics', () => {
  it('serves Prometheus metrics to this machine', async () => {
    await harness.app.inject({ url: '/api/status' });
    const response = await harness.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toContain('earshot_spotify_requests_total');
    expect(response.body).toContain('earshot_jobs_total');
  });

  it('refuses other machines without the metrics token', async () => {
    const response = await harness.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: 'Metrics are available from this machine only' });
  });
});
