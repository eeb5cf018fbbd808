import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './chromium';

const PORT = Number(process.env.E2E_PORT ?? 8181);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
const repoRoot = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(repoRoot, 'e2e', `.data-${PORT}`);

/**
 * Expects the web app built (`npm run test:e2e` builds it first).
 * The whole product as `npm start` runs it (embedded PGlite, the sandbox mounted in-process),
 * on its own port and a data folder wiped before each run, driven in Debian's Chromium.
 */
export default defineConfig({
  testDir: './tests',
  // Per port, like the data folder, so suites on different ports can run side by side.
  outputDir: `test-results-${PORT}`,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
  webServer: {
    command: `node -e "require('fs').rmSync(process.argv[1], { recursive: true, force: true })" "${dataDir}" && npm run serve --workspace @earshot/server`,
    cwd: repoRoot,
    url: `${BASE_URL}/api/status`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // A demo person to be the admin (the moderation spec).
      ADMIN_EMAILS: 'aiko.tanaka@example.com',
    },
  },
});
