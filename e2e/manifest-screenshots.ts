/**
 * Takes the web app manifest's screenshots (apps/web/public/screenshots/, named in
 * apps/web/vite.config.ts) from Earshot as `npm start` runs it, signed in as a demo person of
 * the sandbox, in Debian's Chromium. Run again when the Recent page's look changes:
 *
 *   npm start   # in another terminal, or any Earshot with the sandbox: BASE_URL=…
 *   npx tsx e2e/manifest-screenshots.ts
 */
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './chromium';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
const OUT_DIR = path.resolve(import.meta.dirname, '../apps/web/public/screenshots');
const PERSON = 'Mara Lindqvist';
const SHOTS = [
  { file: 'recent-wide.png', width: 1280, height: 800 },
  { file: 'recent-narrow.png', width: 375, height: 812 },
] as const;

async function screenshot(browser: Browser, shot: (typeof SHOTS)[number]): Promise<void> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: { width: shot.width, height: shot.height },
  });
  const page = await context.newPage();
  await page.goto('/login?next=%2Frecent');
  await page.getByRole('button', { name: 'Connect with Spotify' }).click();
  await page.getByRole('button', { name: new RegExp(PERSON) }).click();
  const allow = page.getByRole('button', { name: 'Allow', exact: true });
  const accountMenu = page.getByRole('button', { name: `Account menu for ${PERSON}` });
  await allow.or(accountMenu).waitFor();
  if (await allow.isVisible()) await allow.click();
  await page.getByRole('list', { name: 'Recent Activity' }).getByRole('listitem').first().waitFor();
  // Covers and avatars drawn, live updates settled.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: path.join(OUT_DIR, shot.file) });
  await context.close();
}

const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
try {
  for (const shot of SHOTS) await screenshot(browser, shot);
} finally {
  await browser.close();
}
