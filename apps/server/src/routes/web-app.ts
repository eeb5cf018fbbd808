import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { activityFeedPath, type ActivityFeed } from '@earshot/contract/activity';
import { matchWebAppPath, webAppPaths } from '@earshot/contract/web-paths';
import {
  PAGE_PRELOADS_FILE,
  PRODUCT_NAME,
  SOCIAL_CARD_PATH,
  type PagePreloads,
} from '@earshot/contract/site';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../db/client';
import { pageMetadata, type CatalogueSources, type PageMetadata } from '../services/page-metadata';
import { publicProfileHandles } from '../services/users';

/** At most this many profiles in `/sitemap.xml` (the protocol's limit per file). */
const SITEMAP_MAX_URLS = 50_000;

/** What search engines may crawl: the public pages, never the API, the sandbox or settings. */
function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /sandbox/',
    'Disallow: /settings',
    'Disallow: /spotify/',
    'Disallow: /search/',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

/** Text safe inside XML or HTML elements and attribute values. */
function escapeMarkup(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON inside a script element: `<` escaped so no value can close the element. */
function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

/** The head tags of one page, as the web app's PageMeta renders them after it starts. */
function headTags(meta: PageMetadata, publicUrl: string): string {
  const url = `${publicUrl}${meta.canonicalPath}`;
  const image = new URL(meta.image ?? SOCIAL_CARD_PATH, publicUrl).href;
  const tags = [
    `<title>${escapeMarkup(meta.title)}</title>`,
    `<meta name="description" content="${escapeMarkup(meta.description)}" />`,
    `<link rel="canonical" href="${escapeMarkup(url)}" />`,
    `<meta property="og:type" content="${meta.type}" />`,
    `<meta property="og:site_name" content="${PRODUCT_NAME}" />`,
    `<meta property="og:title" content="${escapeMarkup(meta.title)}" />`,
    `<meta property="og:description" content="${escapeMarkup(meta.description)}" />`,
    `<meta property="og:url" content="${escapeMarkup(url)}" />`,
    `<meta property="og:image" content="${escapeMarkup(image)}" />`,
    `<meta name="twitter:card" content="${meta.image === null ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${escapeMarkup(meta.title)}" />`,
    `<meta name="twitter:description" content="${escapeMarkup(meta.description)}" />`,
    `<meta name="twitter:image" content="${escapeMarkup(image)}" />`,
  ];
  if (meta.noindex) tags.push('<meta name="robots" content="noindex" />');
  if (meta.structuredData) {
    tags.push(`<script type="application/ld+json">${jsonForScript(meta.structuredData)}</script>`);
  }
  // Marked so the web app can drop them once its own PageMeta renders the same tags.
  return tags.map((tag) => tag.replace(/^<(\w+)/, '<$1 data-server-meta')).join('\n    ');
}

/** The error page loads only the entry's chunks, and so does `/` for visitors (the landing page). */
function loadsPageChunks(pattern: string | undefined, hasSession: boolean): boolean {
  if (pattern === '/') return hasSession;
  return pattern !== undefined && pattern !== '/error';
}

const modulePreloadTag = (href: string) =>
  `\n    <link rel="modulepreload" crossorigin href="${escapeMarkup(href)}" />`;

/**
 * The tags naming the code the pages load, as the build listed it: the chunks every page but
 * the landing and error pages loads (decision 0037), and a feed page's own chunks and
 * stylesheets (decision 0045). The browser fetches them beside the entry instead of once it has
 * run; the stylesheets are the ones the page's chunk would add before showing the page.
 */
function codePreloadTags(distDir: string): { everyPage: string; feedPage: string } {
  const file = path.join(distDir, PAGE_PRELOADS_FILE);
  if (!existsSync(file)) return { everyPage: '', feedPage: '' };
  const { modules, feedPage } = JSON.parse(readFileSync(file, 'utf8')) as PagePreloads;
  return {
    everyPage: modules.map(modulePreloadTag).join(''),
    feedPage:
      feedPage.modules.map(modulePreloadTag).join('') +
      feedPage.styles
        .map((href) => `\n    <link rel="stylesheet" crossorigin href="${escapeMarkup(href)}" />`)
        .join(''),
  };
}

/**
 * The feed pages, with the filters of those whose first page needs nothing but the path (the
 * viewer's own and one user's feed are asked for by the viewer's id or the user's name).
 */
const FEED_PAGES: Partial<Record<string, { feed: ActivityFeed; includeMe: boolean } | null>> = {
  '/': { feed: 'recent', includeMe: true },
  '/recent': { feed: 'recent', includeMe: true },
  '/recent/friends': { feed: 'recent', includeMe: false },
  '/recent/me': null,
  '/recent/user/:username': null,
  '/likes': { feed: 'likes', includeMe: true },
  '/likes/friends': { feed: 'likes', includeMe: false },
  '/likes/me': null,
  '/likes/user/:username': null,
};

/**
 * `<link rel="preload">` tags of the API answers a signed-in page asks for first (decision
 * 0042): the viewer, and on a feed page its first page and the ignored list its rows are marked
 * by, fetched beside the code instead of after it has run. Each address is the one the web app
 * asks for (`activityFeedPath`), with its credentials, so the browser hands it the answer. A
 * search (`?q=`) leaves the feed out: the page's own query of it may differ.
 */
function dataPreloadTags(
  pattern: string | undefined,
  hasSession: boolean,
  search: URLSearchParams,
): string {
  if (!hasSession || pattern === undefined || pattern === '/error') return '';
  const urls = ['/api/user/me'];
  const feedPage = FEED_PAGES[pattern];
  if (feedPage !== undefined) {
    urls.push('/api/ignore');
    if (feedPage && !search.get('q')) {
      urls.push(
        activityFeedPath(feedPage.feed, { includeMe: feedPage.includeMe, user: null, q: '' }),
      );
    }
  }
  return urls
    .map(
      (href) =>
        `\n    <link rel="preload" as="fetch" crossorigin="use-credentials" href="${escapeMarkup(href)}" />`,
    )
    .join('');
}

function matchingPath(pathname: string) {
  for (const pattern of webAppPaths) {
    const params = matchWebAppPath(pattern, pathname);
    if (params) return { pattern, params };
  }
  return null;
}

interface WebAppOptions extends CatalogueSources {
  db: Db;
  distDir: string;
}

/**
 * Serves the built web app: hashed assets (precompressed at build time) cached for a year, the
 * HTML of every page with its title, description and social-card tags filled in on the server
 * (so links shared and crawled show them without JavaScript), 404 for paths no page answers,
 * `robots.txt` and a sitemap of public profiles.
 */
export async function serveWebApp(
  app: FastifyInstance,
  { db, distDir, publicUrl, spotify, visitorSpotify }: WebAppOptions,
) {
  // The head's placeholder comment is where the page's tags go; the chunk preloads go last in the
  // head, after the entry's own tags, so the entry is fetched first.
  const [beforeHead, afterHead] = readFileSync(path.join(distDir, 'index.html'), 'utf8').split(
    /<!--\s*page metadata\s*-->/,
  );
  if (afterHead === undefined) throw new Error('index.html lacks its <!-- page metadata --> slot');
  const [entryTags, afterEntry] = afterHead.split('</head>');
  if (afterEntry === undefined) throw new Error('index.html lacks its </head>');
  const codeTags = codePreloadTags(distDir);

  await app.register(fastifyStatic, {
    root: distDir,
    // index.html is rendered per page below; everything else is a file as built.
    index: false,
    wildcard: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      // Vite fingerprints everything under assets/; the rest (sw.js, icons) must revalidate.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robotsTxt(publicUrl)),
  );

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const handles = await publicProfileHandles(db, SITEMAP_MAX_URLS);
    const urls = handles.map(
      (handle) =>
        `  <url><loc>${escapeMarkup(`${publicUrl}/user/${encodeURIComponent(handle)}`)}</loc></url>`,
    );
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
      );
  });

  /**
   * The page's HTML with its metadata, and 404 for a path no page answers or an unknown entity.
   * `hasSession`: the browser holds a live session (so `/` is Recent Activity, not the landing);
   * `search`: the address's query.
   */
  async function sendPage(
    pathname: string,
    reply: FastifyReply,
    { hasSession, search }: { hasSession: boolean; search: URLSearchParams },
  ) {
    const match = matchingPath(pathname);
    const meta = await pageMetadata(
      db,
      { spotify, visitorSpotify, publicUrl },
      match?.pattern ?? null,
      match?.params ?? {},
      pathname,
    );
    const feedPage = hasSession && FEED_PAGES[match?.pattern ?? ''] !== undefined;
    const preloads =
      (loadsPageChunks(match?.pattern, hasSession) ? codeTags.everyPage : '') +
      (feedPage ? codeTags.feedPage : '') +
      dataPreloadTags(match?.pattern, hasSession, search);
    return reply
      .code(meta.status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(`${beforeHead}${headTags(meta, publicUrl)}${entryTags}${preloads}</head>${afterEntry}`);
  }

  return sendPage;
}
