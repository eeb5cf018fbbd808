/// <reference types="vitest/config" />
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
// Bundled with the config by path: a workspace package would be loaded by Node, which runs no TypeScript.
import { PAGE_PRELOADS_FILE, type PagePreloads } from '../../packages/contract/src/site.js';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { IMAGE_CACHE_NAME } from './src/lib/offlineCacheNames.js';

/**
 * The chunks (groups below) that every page but the landing and error pages loads before it can
 * paint. Listed in `PAGE_PRELOADS_FILE` so the server names them in those pages' HTML and the
 * browser fetches them beside the entry, not after it has run (decision 0037).
 */
const PAGE_CHUNKS = ['shared'];

/** The libraries of the `shared` chunk (the entry's own part of TanStack Query is in `vendor`). */
const SHARED_LIBRARIES = /node_modules[\\/](@tanstack|zod)[\\/]/;

/** The app's shared components built on Radix: they go to the `ui` chunk with it. */
const RADIX_COMPONENTS = /src[\\/]components[\\/]ui[\\/](PointerMenu|InfoTooltip)\.tsx$/;

/**
 * The feed pages' route module and the loaders' code the entry imports on demand: their chunks
 * and the stylesheets the page needs are listed too, for the feed pages' HTML (decision 0045).
 * With them the signed-in layout's live stream and offline keeper, which load before the first
 * paint: asked for once the layout renders, they were the requests the page's paint waited on
 * last (decision 0048).
 */
const FEED_PAGE_MODULES = [
  'src/app/routes/ActivityRoute.tsx',
  'src/app/pageData.ts',
  'src/app/layout/LiveCacheSync.tsx',
  'src/app/offlinePages.tsx',
];

function pagePreloads(): Plugin {
  return {
    name: 'earshot-page-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const pageChunks = chunks.filter((chunk) => PAGE_CHUNKS.includes(chunk.name));
      if (pageChunks.length !== PAGE_CHUNKS.length) {
        const found = pageChunks.map((chunk) => chunk.name).join(', ');
        this.error(`expected the chunks ${PAGE_CHUNKS.join(', ')}; found ${found}`);
      }
      const feedPage = FEED_PAGE_MODULES.map((module) => {
        const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(module));
        if (!chunk) this.error(`no chunk has ${module} for its module`);
        return chunk;
      });
      // Those chunks and the ones they alone import beyond the entry's and the pages' shared ones.
      const entry = chunks.filter((chunk) => chunk.isEntry);
      const alreadyNamed = new Set([
        ...[...entry, ...pageChunks].flatMap((chunk) => [chunk.fileName, ...chunk.imports]),
        ...feedPage.map((chunk) => chunk.fileName),
      ]);
      const feedChunks = [
        ...feedPage,
        ...feedPage
          .flatMap((chunk) => chunk.imports)
          .filter((file) => !alreadyNamed.has(file))
          .map((file) => byFile.get(file)!),
      ];
      // Each stylesheet the page needs before it paints, the shared chunks' included.
      const styles = [...feedChunks, ...pageChunks].flatMap((chunk) => [
        ...(chunk.viteMetadata?.importedCss ?? []),
      ]);
      const address = (file: string) => `/${file}`;
      const preloads: PagePreloads = {
        modules: pageChunks.map((chunk) => address(chunk.fileName)).sort(),
        feedPage: {
          modules: feedChunks.map((chunk) => address(chunk.fileName)),
          styles: styles.map(address),
        },
      };
      this.emitFile({
        type: 'asset',
        fileName: PAGE_PRELOADS_FILE,
        source: `${JSON.stringify(preloads)}\n`,
      });
    },
  };
}

/**
 * React Router 7's package exports name its development build (dev warnings and checks on every
 * navigation) under every condition, production builds included (remix-run/react-router#12532):
 * the app's build takes the production build beside it, the same entry points.
 */
function reactRouterProductionBuild(): Plugin {
  const dist = path.join(
    path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
    'dist/production',
  );
  return {
    name: 'earshot-react-router-production-build',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: path.join(dist, 'index.mjs') },
          { find: /^react-router\/dom$/, replacement: path.join(dist, 'dom-export.mjs') },
        ],
      },
    }),
  };
}

/** The Earshot server (apps/server) in development: the API and the offline Spotify sandbox. */
const DEV_BACKEND = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    reactRouterProductionBuild(),
    pagePreloads(),
    // .br and .gz beside each text asset, served by the server as they are (preCompressed).
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|css|html|svg|json|webmanifest|txt|vtt)$/,
    }),
    VitePWA({
      // Registered by src/app/serviceWorker.ts (preflight, update checks, reload on update).
      injectRegister: false,
      registerType: 'autoUpdate',
      includeAssets: ['logo.svg', 'apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Earshot',
        short_name: 'Earshot',
        description:
          "Social music listening on your Spotify account: your and your friends' plays, likes and discoveries.",
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#0b0d12',
        theme_color: '#0b0d12',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // The three tabs (docs/product.md §2), from the installed app's icon.
        shortcuts: [
          { name: 'Recents', url: '/recent', icons: [{ src: '/icon-192.png', sizes: '192x192' }] },
          { name: 'Likes', url: '/likes', icons: [{ src: '/icon-192.png', sizes: '192x192' }] },
          {
            name: 'Discover',
            url: '/discover',
            icons: [{ src: '/icon-192.png', sizes: '192x192' }],
          },
        ],
        // Shown by install dialogs; taken from the app against the sandbox by
        // scripts/manifest-screenshots.mjs.
        screenshots: [
          {
            src: '/screenshots/recent-wide.png',
            sizes: '1280x800',
            type: 'image/png',
            form_factor: 'wide',
            label: 'Recent activity of you and your friends',
          },
          {
            src: '/screenshots/recent-narrow.png',
            sizes: '375x812',
            type: 'image/png',
            form_factor: 'narrow',
            label: 'Recent activity on a phone',
          },
        ],
      },
      workbox: {
        skipWaiting: true,
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Only crawlers fetch the social card, and install dialogs the screenshots: neither need
        // take up the offline cache.
        // Sentry's chunk loads only where a DSN is configured (and is not missed offline).
        globIgnores: ['social-card.png', 'screenshots/**', 'assets/sentry-*.js'],
        navigateFallback: '/index.html',
        // The API and the mounted Spotify sandbox are server routes, never the app shell.
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/sandbox(\/|$)/],
        // Pages offline (decision 0027): the app saves API answers itself; covers and profile
        // pictures, from Spotify's image hosts or the sandbox, are kept here. An image address
        // never changes content, so the cache answers first. Cross-origin ones are opaque
        // (status 0).
        runtimeCaching: [
          {
            urlPattern: ({ request, url }) =>
              request.destination === 'image' &&
              (url.pathname.startsWith('/sandbox/images/') ||
                /(^|\.)(scdn\.co|spotifycdn\.com)$/.test(url.hostname)),
            handler: 'CacheFirst',
            options: {
              cacheName: IMAGE_CACHE_NAME,
              cacheableResponse: { statuses: [0, 200] },
              expiration: {
                maxEntries: 400,
                maxAgeSeconds: 30 * 24 * 60 * 60,
                purgeOnQuotaError: true,
              },
            },
          },
        ],
      },
    }),
  ],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': DEV_BACKEND,
      '/sandbox': DEV_BACKEND,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        // `vendor` holds only those the entry needs; the rest (dialogs, menus, zod) go with the
        // pages that load them on demand (decision 0023).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 5,
            },
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 4 },
            // The app's own modules of the entry stay one chunk, not split off where a lazy page
            // shares them (each request costs ~1 KB of headers and a round trip on the landing).
            { name: 'app', tags: ['$initial'], priority: 3 },
            // What every page but the landing loads before it can paint, one chunk (decision
            // 0049): the app modules two or more pages share, zod, and the rest of TanStack Query
            // (the pages' infinite queries and mutations). As three chunks, each was one more
            // request on a phone's six connections, a round trip later for the first paint.
            {
              name: 'shared',
              test: (id: string) =>
                /node_modules/.test(id) ? SHARED_LIBRARIES.test(id) : !RADIX_COMPONENTS.test(id),
              minShareCount: 2,
              priority: 2,
            },
            // Loaded only when the server names a Sentry DSN: never with the pages' libraries.
            { name: 'sentry', test: /node_modules[\\/]@sentry(-internal)?[\\/]/, priority: 2 },
            // The other libraries pages load on demand (Radix, floating-ui), with the shared
            // components built on Radix: in `shared`, they would make every page load Radix, the
            // Recent page's first paint among them (decision 0034). A module of zod or TanStack
            // Query that one page alone uses stays with that page.
            {
              name: 'ui',
              test: (id: string) =>
                /node_modules/.test(id) ? !SHARED_LIBRARIES.test(id) : RADIX_COMPONENTS.test(id),
              priority: 1,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    // Test files wait on servers, sockets and timers as much as they compute: a worker more than
    // the cores keeps them all busy (vitest's default, cores − 1, leaves one of two idle).
    maxWorkers: availableParallelism() + 1,
    setupFiles: ['./test/setup.ts'],
    clearMocks: true,
    restoreMocks: true,
    unstubGlobals: true,
    // jsdom renders of the whole shell take seconds on a loaded 2-core machine; a timeout here
    // only guards against a hung test, it measures nothing.
    testTimeout: 20_000,
  },
});
