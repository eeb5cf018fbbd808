/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

/** The Earshot server (apps/server) in development: the API and the offline Spotify sandbox. */
const DEV_BACKEND = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    // .br and .gz beside each text asset, served by the server as they are (preCompressed).
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|css|html|svg|json|webmanifest|txt)$/,
    }),
    VitePWA({
      // Registered by src/app/serviceWorker.ts (preflight, update checks, reload on update).
      injectRegister: false,
      registerType: 'autoUpdate',
      includeAssets: ['logo.svg', 'apple-touch-icon.png'],
      manifest: {
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
      },
      workbox: {
        skipWaiting: true,
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Only crawlers fetch the social card; it need not take up the offline cache.
        globIgnores: ['social-card.png'],
        navigateFallback: '/index.html',
        // The API and the mounted Spotify sandbox are server routes, never the app shell.
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/sandbox(\/|$)/],
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
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 2,
            },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    clearMocks: true,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
