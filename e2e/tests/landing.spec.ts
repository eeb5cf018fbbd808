import { expect, test } from '@playwright/test';

test('the landing page presents Earshot to visitors', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Connect with Spotify' })).toBeVisible();
  await expect(page.locator('footer')).toContainText(/\d+\.\d+\.\d+/);
});

test('the landing page says so when the backend cannot be reached', async ({ page }) => {
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page.goto('/');
  await expect(page.getByText('Earshot is having some issue')).toBeVisible();
  await expect(page.getByText('We will be back soon')).toBeVisible();
});

test('unknown paths render the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/not found/i);
});

test('the error page shows the message it is given', async ({ page }) => {
  await page.goto('/error?type=api&message=Spotify%20access%20was%20not%20granted.');
  await expect(page.getByText('Spotify access was not granted.')).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
});

/** What the spec reads of an HTMLVideoElement (this package has no DOM types). */
interface VideoElement {
  currentTime: number;
  textTracks: Iterable<{ mode: string; cues: { length: number } | null }>;
}

test('the demo video loads nothing until it nears the viewport, then plays with captions', async ({
  page,
}) => {
  const demoRequests: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/demo/')) demoRequests.push(pathname);
  });
  // So short that the video, below the hero, is well out of sight.
  await page.setViewportSize({ width: 375, height: 200 });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Connect with Spotify' })).toBeVisible();
  // The page has settled: the footer has the server's answer. (Not the idle network: the page's
  // two status requests stay open in Playwright's view, so it never comes.)
  await expect(page.getByText('Connected')).toBeVisible();
  expect(demoRequests).toEqual([]);

  const video = page.getByRole('figure', { name: /^A tour of Earshot/ }).locator('video');
  const poster = page.waitForResponse((response) =>
    response.url().endsWith('/demo/earshot-demo-poster.webp'),
  );
  const captions = page.waitForResponse((response) =>
    response.url().endsWith('/demo/earshot-demo.en.vtt'),
  );
  await page.setViewportSize({ width: 1280, height: 800 });
  await video.scrollIntoViewIfNeeded();
  expect((await poster).headers()['content-type']).toBe('image/webp');
  expect((await captions).headers()['content-type']).toMatch(/^text\/vtt/);
  await expect(video).toHaveJSProperty('readyState', 0);
  expect(demoRequests.filter((path) => /\.(webm|mp4)$/.test(path))).toEqual([]);

  // The visitor presses play (from the keyboard, on the focused video): only now does it come.
  const media = page.waitForResponse((response) =>
    response.url().endsWith('/demo/earshot-demo.webm'),
  );
  await video.focus();
  await page.keyboard.press('Space');
  expect([200, 206]).toContain((await media).status());
  await expect
    .poll(() => video.evaluate((element) => (element as unknown as VideoElement).currentTime))
    .toBeGreaterThan(0.5);
  // The captions show by default and are loaded.
  const track = await video.evaluate((element) => {
    const [captions] = (element as unknown as VideoElement).textTracks;
    return { mode: captions?.mode, cues: captions?.cues?.length ?? 0 };
  });
  expect(track.mode).toBe('showing');
  expect(track.cues).toBeGreaterThan(3);
});
