import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support/harness';

/** A built web app as Vite leaves it: the page shell with its metadata slot, hashed assets. */
function fakeBuild(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'earshot-dist-'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><meta charset="UTF-8" />\n<!-- page metadata -->\n</head><body><div id="root"></div></body></html>',
  );
  mkdirSync(path.join(dist, 'assets'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dist, 'sw.js'), 'self.skipWaiting();');
  return dist;
}

let harness: Harness;
let dist: string;
/** The signed-in demo user's Earshot username. */
let username: string;

beforeAll(async () => {
  dist = fakeBuild();
  harness = await startHarness({ webDistDir: dist });
  const viewer = await harness.signIn('maralindqvist');
  const me = await harness.app.inject({ url: '/api/user/me', headers: { cookie: viewer.cookie } });
  username = me.json<{ username: string }>().username;
});

afterAll(async () => {
  await harness.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers every page of the app with 200 and any other path with 404, both with the app', async () => {
    for (const url of ['/', '/recent', '/likes/user/someone', '/settings', `/user/${username}`]) {
      const page = await harness.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('<div id="root">');
    }
    for (const url of ['/nope', '/recent/nobody/extra', '/favicon.php', '/user/nobody-here']) {
      const page = await harness.app.inject({ url });
      expect(page.statusCode, url).toBe(404);
      expect(page.body).toContain('<div id="root">');
    }
  });

  it('answers the search modal paths with the app, kept out of search engines', async () => {
    for (const url of ['/search', '/search/', '/search/bj%C3%B6rk']) {
      const page = await harness.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<meta data-server-meta name="robots" content="noindex" />');
    }
  });

  it('fills in a public profile title, description, canonical link, social card and JSON-LD', async () => {
    const page = await harness.app.inject({ url: `/user/${username.toUpperCase()}` });
    expect(page.statusCode).toBe(200);
    const user = (await harness.app.inject({ url: `/api/user/${username}/public` })).json<{
      user: { name: string; username: string };
    }>().user;
    expect(page.body).toContain(
      `<title data-server-meta>${user.name} (@${user.username}) - Earshot</title>`,
    );
    expect(page.body).toContain(
      `<link data-server-meta rel="canonical" href="http://127.0.0.1:8080/user/${user.username}" />`,
    );
    expect(page.body).toMatch(/<meta data-server-meta name="description" content="[^"]+ plays, /);
    expect(page.body).toContain('<meta data-server-meta property="og:type" content="profile" />');
    const jsonLd = /<script data-server-meta type="application\/ld\+json">(.*?)<\/script>/.exec(
      page.body,
    );
    expect(JSON.parse(jsonLd?.[1] ?? 'null')).toMatchObject({
      '@type': 'ProfilePage',
      mainEntity: { '@type': 'Person', alternateName: `@${user.username}` },
    });
  });

  it('says "Profile not found" with 404 for an unknown or impossible handle, never reaching SQL', async () => {
    for (const url of ['/user/nobody-here', '/user/%00', '/user/a%20b', '/user/%3Cb%3E']) {
      const page = await harness.app.inject({ url });
      expect(page.statusCode, url).toBe(404);
      expect(page.body).toContain('<title data-server-meta>Profile not found - Earshot</title>');
      expect(page.body).toContain('<meta data-server-meta name="robots" content="noindex" />');
    }
  });

  it('escapes what users wrote into the head', async () => {
    await harness.database.db.execute(
      sql`UPDATE users SET name = ${'</title><script>"Mara" & co'} WHERE username = ${username}`,
    );
    const page = await harness.app.inject({ url: `/user/${username}` });
    expect(page.body).not.toContain('<script>"Mara"');
    expect(page.body).toContain(
      `<title data-server-meta>&#60;/title&#62;&#60;script&#62;&#34;Mara&#34; &#38; co (@${username}) - Earshot</title>`,
    );
    const jsonLd = /<script data-server-meta type="application\/ld\+json">(.*?)<\/script>/.exec(
      page.body,
    );
    expect(jsonLd?.[1]).toContain('\\u003c/title>');
  });

  it('serves robots.txt and a sitemap of public profiles', async () => {
    const robots = await harness.app.inject({ url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toContain('Disallow: /api/');
    expect(robots.body).toContain('Sitemap: http://127.0.0.1:8080/sitemap.xml');
    const sitemap = await harness.app.inject({ url: '/sitemap.xml' });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/);
    expect(sitemap.body).toMatch(/<loc>http:\/\/127\.0\.0\.1:8080\/user\/[^<]+<\/loc>/);
  });

  it('sends precompressed assets with immutable caching, and compresses dynamic answers', async () => {
    const asset = await harness.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(asset.rawPayload).toString()).toContain('console.log');

    const worker = await harness.app.inject({ url: '/sw.js' });
    expect(worker.headers['cache-control']).toBe('no-cache');

    const docs = await harness.app.inject({
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(docs.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(docs.rawPayload).toString())).toHaveProperty('openapi');
  });

  it('keeps answering JSON 404s for unknown API paths', async () => {
    const missing = await harness.app.inject({ url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'No route for GET /api/nothing-here' });
  });
});
