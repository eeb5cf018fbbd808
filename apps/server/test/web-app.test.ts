import { SIGNED_IN_COOKIE } from '@earshot/contract/session';
import { SESSION_COOKIE } from '../src/services/sessions';
import { PAGE_PRELOADS_FILE, type PagePreloads } from '@earshot/contract/site';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SandboxClock } from '@earshot/spotify-sandbox/clock';
import type { World } from '@earshot/spotify-sandbox/world/model';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicProfile } from '@earshot/contract/profile';
import type { CurrentUser } from '@earshot/contract/user';
import { startHarness, type Harness } from './support/harness';

/** The chunks the fake build says every page but the landing and error pages loads. */
const PAGE_CHUNKS = ['/assets/shared-abc.js', '/assets/zod-def.js'];
const FEED_PAGE: PagePreloads['feedPage'] = {
  modules: ['/assets/ActivityRoute-ghi.js', '/assets/pageData-jkl.js'],
  styles: ['/assets/ActivityRoute-mno.css', '/assets/shared-pqr.css'],
};

const DEMO_CAPTIONS = 'WEBVTT\n\n1\n00:00:00.000 --> 00:00:03.000\nEarshot\n';

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
  writeFileSync(
    path.join(dist, PAGE_PRELOADS_FILE),
    JSON.stringify({ modules: PAGE_CHUNKS, feedPage: FEED_PAGE } satisfies PagePreloads),
  );
  // The landing page's demo (apps/web/public/demo/, copied as is by the build).
  mkdirSync(path.join(dist, 'demo'));
  for (const file of ['earshot-demo.webm', 'earshot-demo.mp4', 'earshot-demo-poster.webp']) {
    writeFileSync(path.join(dist, 'demo', file), Buffer.alloc(50_000, 7));
  }
  writeFileSync(path.join(dist, 'demo', 'earshot-demo.en.vtt'), DEMO_CAPTIONS);
  writeFileSync(
    path.join(dist, 'demo', 'earshot-demo.en.vtt.br'),
    brotliCompressSync(DEMO_CAPTIONS),
  );
  return dist;
}

const world: World = createWorld();
const clock = new SandboxClock({ frozen: true });
const MARA = 'maralindqvist';

let harness: Harness;
let dist: string;
/** The signed-in demo user's Earshot username. */
let username: string;

beforeAll(async () => {
  dist = fakeBuild();
  // A client with a secret: the pages' metadata is filled for visitors with Earshot's own token.
  harness = await startHarness({
    webDistDir: dist,
    env: { SPOTIFY_CLIENT_SECRET: 'earshot-test-secret' },
    sandbox: { world, clock },
  });
  const viewer = await harness.signIn(MARA);
  const me = await harness.app.inject({ url: '/api/user/me', headers: { cookie: viewer.cookie } });
  username = me.json<CurrentUser>().username;
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

  it("gives a page's HTML the signed-in cookie a session begun without it lacks, and no one else", async () => {
    const hintOf = async (cookie?: string) => {
      const page = await harness.app.inject({ url: '/recent', headers: cookie ? { cookie } : {} });
      return page.cookies.find((c) => c.name === SIGNED_IN_COOKIE)?.value;
    };
    const { cookie } = await harness.signIn(MARA);
    expect(await hintOf(cookie)).toBe('1');
    expect(await hintOf(`${cookie}; ${SIGNED_IN_COOKIE}=1`)).toBeUndefined();
    expect(await hintOf()).toBeUndefined();
    expect(await hintOf(`${SESSION_COOKIE}=no-such-session`)).toBe('');
  });

  it("names the pages' shared chunks in their HTML, not in the landing, error or 404 pages'", async () => {
    const preloadsOf = async (url: string, cookie?: string) => {
      const page = await harness.app.inject({ url, headers: cookie ? { cookie } : {} });
      return [...page.body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)"/g)].map(
        (found) => found[1],
      );
    };
    for (const url of ['/recent', '/discover', `/user/${username}`, '/search/abba']) {
      expect(await preloadsOf(url), url).toEqual(PAGE_CHUNKS);
    }
    for (const url of ['/', '/error', '/no-such-page']) {
      expect(await preloadsOf(url), url).toEqual([]);
    }
    // `/` is the signed-in user's Recent Activity.
    const { cookie } = await harness.signIn(MARA);
    expect(await preloadsOf('/', cookie)).toEqual([...PAGE_CHUNKS, ...FEED_PAGE.modules]);
  });

  it("names a feed page's own chunks and stylesheets in its HTML for a signed-in browser", async () => {
    const { cookie } = await harness.signIn(MARA);
    const codeOf = async (url: string, withCookie = true) => {
      const page = await harness.app.inject({ url, headers: withCookie ? { cookie } : {} });
      const hrefs = (pattern: RegExp) => [...page.body.matchAll(pattern)].map((found) => found[1]);
      return {
        modules: hrefs(/<link rel="modulepreload" crossorigin href="([^"]+)"/g),
        styles: hrefs(/<link rel="stylesheet" crossorigin href="([^"]+)"/g),
      };
    };
    const feedPage = { modules: [...PAGE_CHUNKS, ...FEED_PAGE.modules], styles: FEED_PAGE.styles };
    for (const url of ['/', '/recent', '/recent/friends', '/recent/me', '/likes?q=abba']) {
      expect(await codeOf(url), url).toEqual(feedPage);
    }
    expect(await codeOf(`/recent/user/${username}`)).toEqual(feedPage);
    // Other pages load other chunks; visitors are shown the landing page or sent to log in.
    expect(await codeOf('/discover')).toEqual({ modules: PAGE_CHUNKS, styles: [] });
    expect(await codeOf('/recent', false)).toEqual({ modules: PAGE_CHUNKS, styles: [] });
    expect(await codeOf('/', false)).toEqual({ modules: [], styles: [] });
  });

  it('names the API answers a signed-in page asks for first, for the browser to fetch with it', async () => {
    const { cookie } = await harness.signIn(MARA);
    const dataPreloadsOf = async (url: string, withCookie = true) => {
      const page = await harness.app.inject({ url, headers: withCookie ? { cookie } : {} });
      return [
        ...page.body.matchAll(
          /<link rel="preload" as="fetch" crossorigin="use-credentials" href="([^"]+)"/g,
        ),
        // As the browser reads the attribute: `&` is written as a character reference.
      ].map((found) => found[1]?.replaceAll('&#38;', '&'));
    };
    const feedPage = ['/api/user/me', '/api/ignore'];
    expect(await dataPreloadsOf('/')).toEqual([...feedPage, '/api/recent?limit=30']);
    expect(await dataPreloadsOf('/recent')).toEqual([...feedPage, '/api/recent?limit=30']);
    expect(await dataPreloadsOf('/recent/friends')).toEqual([
      ...feedPage,
      '/api/recent?limit=30&include_me=false',
    ]);
    expect(await dataPreloadsOf('/likes')).toEqual([...feedPage, '/api/likes?limit=30']);
    expect(await dataPreloadsOf('/likes/friends')).toEqual([
      ...feedPage,
      '/api/likes?limit=30&include_me=false',
    ]);
    // A search's feed is the page's own business; other pages need the viewer only.
    expect(await dataPreloadsOf('/recent?q=abba')).toEqual(feedPage);
    expect(await dataPreloadsOf('/recent/me')).toEqual(feedPage);
    expect(await dataPreloadsOf('/discover')).toEqual(['/api/user/me']);
    expect(await dataPreloadsOf(`/user/${username}`)).toEqual(['/api/user/me']);
    expect(await dataPreloadsOf('/recent?q=')).toEqual([...feedPage, '/api/recent?limit=30']);
    // Nothing for visitors, an ended session, the error page or a path no page answers.
    expect(await dataPreloadsOf('/recent', false)).toEqual([]);
    const ended = await harness.app.inject({
      url: '/recent',
      headers: { cookie: `${SESSION_COOKIE}=no-such-session; ${SIGNED_IN_COOKIE}=1` },
    });
    expect(ended.body).not.toContain('rel="preload"');
    // Its cookies are cleared with the page, so the app asks no one who it is.
    expect(ended.cookies.find((c) => c.name === SIGNED_IN_COOKIE)?.value).toBe('');
    expect(await dataPreloadsOf(`/user/${username}`, false)).toEqual([]);
    expect(await dataPreloadsOf('/error')).toEqual([]);
    expect(await dataPreloadsOf('/no-such-page')).toEqual([]);
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
    const user = (
      await harness.app.inject({ url: `/api/user/${username}/public` })
    ).json<PublicProfile>().user;
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

  /** The page's head tag of `name` (the attribute that names it), and its JSON-LD. */
  const head = (body: string) => ({
    title: /<title data-server-meta>(.*?)<\/title>/.exec(body)?.[1],
    meta: (name: string) =>
      new RegExp(`<meta data-server-meta (?:name|property)="${name}" content="([^"]*)" />`).exec(
        body,
      )?.[1],
    canonical: /<link data-server-meta rel="canonical" href="([^"]*)" \/>/.exec(body)?.[1],
    jsonLd: JSON.parse(
      /<script data-server-meta type="application\/ld\+json">(.*?)<\/script>/.exec(body)?.[1] ??
        'null',
    ) as Record<string, unknown> | null,
  });
  const SITE = 'http://127.0.0.1:8080';

  it('fills in an artist page and its tabs, with two genres in the description', async () => {
    const artist = world.artists.find((candidate) => candidate.genres.length >= 3)!;
    const page = await harness.app.inject({ url: `/artist/${artist.id}` });
    expect(page.statusCode).toBe(200);
    const tags = head(page.body);
    expect(tags.title).toBe(`${artist.name} - Earshot`);
    expect(tags.meta('description')).toBe(
      `${artist.name}, ${artist.genres[0]} and ${artist.genres[1]} artist: tracks, albums and who listens on Earshot.`,
    );
    expect(tags.canonical).toBe(`${SITE}/artist/${artist.id}`);
    expect(tags.meta('og:image')).toMatch(/^http/);
    expect(tags.meta('twitter:card')).toBe('summary');
    expect(tags.meta('robots')).toBeUndefined();
    expect(tags.jsonLd).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'MusicGroup',
      name: artist.name,
      url: `${SITE}/artist/${artist.id}`,
      genre: [...artist.genres],
    });
    const albumsTab = head((await harness.app.inject({ url: `/artist/${artist.id}/albums` })).body);
    expect(albumsTab.title).toBe(`${artist.name} - Albums - Earshot`);
    expect(albumsTab.canonical).toBe(`${SITE}/artist/${artist.id}/albums`);
    const likesTab = head((await harness.app.inject({ url: `/artist/${artist.id}/likes` })).body);
    expect(likesTab.title).toBe(`${artist.name} - Likes - Earshot`);
  });

  it('fills in album and track pages as MusicAlbum and MusicRecording', async () => {
    const album = world.albums.find((candidate) => candidate.trackIds.length >= 3)!;
    const albumPage = await harness.app.inject({ url: `/album/${album.id}` });
    expect(albumPage.statusCode).toBe(200);
    const albumTags = head(albumPage.body);
    expect(albumTags.title).toMatch(
      new RegExp(`^${album.name.replace(/\W/g, '.')} by .+ - Earshot$`),
    );
    expect(albumTags.meta('description')).toContain(`(${album.releaseDate.slice(0, 4)})`);
    expect(albumTags.jsonLd).toMatchObject({
      '@type': 'MusicAlbum',
      name: album.name,
      numTracks: album.trackIds.length,
      byArtist: [{ '@type': 'MusicGroup' }],
    });

    const track = world.track(album.trackIds[1]!)!;
    const trackTags = head((await harness.app.inject({ url: `/track/${track.id}` })).body);
    expect(trackTags.title).toMatch(
      new RegExp(`^${track.name.replace(/\W/g, '.')} by .+ - Earshot$`),
    );
    expect(trackTags.canonical).toBe(`${SITE}/track/${track.id}`);
    expect(trackTags.jsonLd).toMatchObject({
      '@type': 'MusicRecording',
      name: track.name,
      inAlbum: { '@type': 'MusicAlbum', name: album.name },
    });
  });

  it('fills in a public playlist, and says nothing of a private one', async () => {
    const playlists = world.playlistsOf(MARA, clock.now());
    const shared = playlists.find((playlist) => playlist.public)!;
    const sharedTags = head((await harness.app.inject({ url: `/playlist/${shared.id}` })).body);
    expect(sharedTags.title).toBe(`${shared.name} - Earshot`);
    expect(sharedTags.jsonLd).toMatchObject({ '@type': 'MusicPlaylist', name: shared.name });

    const hidden = playlists.find((playlist) => playlist.ownerId === MARA && !playlist.public)!;
    // Its owner opened it, so Earshot stores it.
    const mara = await harness.signIn(MARA);
    const own = await harness.app.inject({
      url: `/api/playlist/${hidden.id}`,
      headers: { cookie: mara.cookie },
    });
    expect(own.statusCode).toBe(200);
    const page = await harness.app.inject({ url: `/playlist/${hidden.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(hidden.name);
    const tags = head(page.body);
    expect(tags.title).toBe('This playlist is private - Earshot');
    expect(tags.meta('robots')).toBe('noindex');
    expect(tags.jsonLd).toBeNull();
  });

  it("answers 404 with the entity's not-found title for ids no one knows or could issue", async () => {
    for (const [url, title] of [
      ['/artist/zzzzzzzzzzzzzzzzzzzzzz', 'Artist Not Found'],
      ['/artist/zzzzzzzzzzzzzzzzzzzzzz/albums', 'Artist Not Found'],
      ['/album/zzzzzzzzzzzzzzzzzzzzzz', 'Album Not Found'],
      ['/track/zzzzzzzzzzzzzzzzzzzzzz', 'Track Not Found'],
      ['/track/%00', 'Track Not Found'],
      ['/track/a%20b', 'Track Not Found'],
      ['/playlist/zzzzzzzzzzzzzzzzzzzzzz', 'Playlist Not Found'],
    ]) {
      const page = await harness.app.inject({ url });
      expect(page.statusCode, url).toBe(404);
      expect(page.body).toContain('<div id="root">');
      expect(head(page.body).title, url).toBe(`${title} - Earshot`);
      expect(head(page.body).meta('robots')).toBe('noindex');
    }
  });

  it('answers 503 when Spotify cannot say whether an unstored id exists', async () => {
    await harness.control('PUT', '/faults', {
      seed: 1,
      rules: [{ type: 'server-error', rate: 1, path: '/v1/' }],
    });
    try {
      const unopened = world.albums.at(-1)!;
      const page = await harness.app.inject({ url: `/album/${unopened.id}` });
      expect(page.statusCode).toBe(503);
      expect(head(page.body).title).toBe('Album - Earshot');
    } finally {
      await harness.control('DELETE', '/faults');
    }
  });

  it('escapes what users wrote into the head', async () => {
    const rename = (name: string) =>
      harness.database.db.execute<{ name: string }>(sql`
        UPDATE users SET name = ${name} FROM (SELECT name FROM users WHERE username = ${username}) old
        WHERE username = ${username} RETURNING old.name`);
    const [{ name: before }] = (await rename('</title><script>"Mara" & co')).rows as [
      { name: string },
    ];
    try {
      const page = await harness.app.inject({ url: `/user/${username}` });
      expect(page.body).not.toContain('<script>"Mara"');
      expect(page.body).toContain(
        `<title data-server-meta>&#60;/title&#62;&#60;script&#62;&#34;Mara&#34; &#38; co (@${username}) - Earshot</title>`,
      );
      const jsonLd = /<script data-server-meta type="application\/ld\+json">(.*?)<\/script>/.exec(
        page.body,
      );
      expect(jsonLd?.[1]).toContain('\\u003c/title>');
    } finally {
      // The other tests read the name as the demo world made it.
      await rename(before);
    }
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

  it('serves the demo video, its poster and captions with their types, the video in ranges', async () => {
    const types = {
      '/demo/earshot-demo.webm': 'video/webm',
      '/demo/earshot-demo.mp4': 'video/mp4',
      '/demo/earshot-demo-poster.webp': 'image/webp',
    };
    for (const [url, type] of Object.entries(types)) {
      const file = await harness.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(file.statusCode, url).toBe(200);
      expect(file.headers['content-type'], url).toBe(type);
      // Already compressed: sent as they are.
      expect(file.headers['content-encoding'], url).toBeUndefined();
      expect(file.rawPayload.length, url).toBe(50_000);
    }

    // Browsers fetch and seek a video by byte ranges.
    const part = await harness.app.inject({
      url: '/demo/earshot-demo.webm',
      headers: { range: 'bytes=1000-1999', 'accept-encoding': 'br, gzip' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 1000-1999/50000');
    expect(part.rawPayload.length).toBe(1000);

    const captions = await harness.app.inject({
      url: '/demo/earshot-demo.en.vtt',
      headers: { 'accept-encoding': 'br' },
    });
    expect(captions.statusCode).toBe(200);
    expect(captions.headers['content-type']).toMatch(/^text\/vtt/);
    expect(captions.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(captions.rawPayload).toString()).toBe(DEMO_CAPTIONS);
  });

  it('keeps answering JSON 404s for unknown API paths', async () => {
    const missing = await harness.app.inject({ url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'No route for GET /api/nothing-here' });
  });
});
