import { expect, test, type Page } from '@playwright/test';
import { feedRows, rowText, rowTitleLink } from './support/feed';
import { PEOPLE, logIn, logInNewContext, waitForActivityOf, type Person } from './support/session';
import { listensThroughout, onPlan } from './support/world';

// Issue 15, end to end: a premium demo person with no device playing starts a track from their
// feed; Earshot's web player takes over; the mini player follows them to another page and
// pauses, resumes and skips; a track page plays its track; a free demo person sees no pause or
// next.

/** How long the spec needs the chosen people to stay as they are in the simulated world. */
const SPEC_MINUTES = 5;

/** One of the specs' demo people on `plan`, listening or not for the next SPEC_MINUTES. */
function demoPerson(plan: 'premium' | 'free', listening: boolean): Person | undefined {
  return Object.values(PEOPLE).find(
    (person) => onPlan(person, plan) && listensThroughout(person, listening, SPEC_MINUTES),
  );
}

function miniPlayer(page: Page) {
  return page.getByRole('region', { name: 'Mini player' });
}

async function playbackState(page: Page) {
  const answer = await page.request.get('/api/spotify/playback');
  expect(answer.ok()).toBe(true);
  return (
    (await answer.json()) as {
      state: null | { is_playing: boolean; item: { track: { id: string; title: string } } | null };
    }
  ).state;
}

test('a premium listener with no device playing plays in the browser, from page to page', async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000);
  const listener = demoPerson('premium', false);
  expect(listener, 'a premium demo person hears nothing for the next minutes').toBeDefined();
  if (!listener) return;

  await logIn(page, listener, '/recent/me');
  await waitForActivityOf(page.request, [listener]);
  expect(await playbackState(page), 'no device of theirs plays').toBeNull();
  await page.goto('/recent/me');
  const row = feedRows(page).first();
  const title = await rowText(rowTitleLink(row));

  await test.step('the play finds no active device; the web player takes over', async () => {
    const firstPlay = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/spotify/play',
    );
    await row.hover();
    await row.getByRole('button', { name: `Play ${title}` }).click();
    expect((await firstPlay).status()).toBe(409);
    await expect(miniPlayer(page).getByRole('link', { name: title })).toBeVisible();
    await expect(miniPlayer(page).getByRole('button', { name: 'Pause' })).toBeVisible({
      timeout: 20_000,
    });
    // The web player's start, transfer and retried play take a while on a loaded machine.
    await expect
      .poll(async () => (await playbackState(page))?.item?.track.title, { timeout: 20_000 })
      .toBe(title);

    await miniPlayer(page).getByRole('button', { name: 'Devices' }).click();
    const webPlayer = page.getByRole('menuitem', { name: /Earshot Web Player/ });
    await expect(webPlayer).toHaveAttribute('aria-current', 'true');
    await expect(webPlayer).toContainText('Playing here');
    await page.keyboard.press('Escape');
  });

  await test.step('the mini player stays on another page', async () => {
    await page.getByRole('link', { name: 'Likes' }).first().click();
    await expect(page).toHaveURL(/\/likes$/);
    await expect(miniPlayer(page).getByRole('link', { name: title })).toBeVisible();
    await expect(miniPlayer(page).getByRole('progressbar')).toBeVisible();
  });

  await test.step('screenshots at 1280 and 375 px', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: testInfo.outputPath('mini-player-1280.png') });
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(miniPlayer(page)).toBeVisible();
    // Beside the controls, the title wraps onto a second line rather than ending in an ellipsis.
    const titleLink = miniPlayer(page).getByRole('link', { name: title });
    expect(await titleLink.evaluate((link) => link.scrollWidth <= link.clientWidth + 1)).toBe(true);
    expect((await titleLink.boundingBox())?.height).toBeLessThanOrEqual(48);
    await page.screenshot({ path: testInfo.outputPath('mini-player-375.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('pause and resume', async () => {
    await miniPlayer(page).getByRole('button', { name: 'Pause' }).click();
    await expect(miniPlayer(page).getByRole('button', { name: 'Play' })).toBeVisible();
    await expect.poll(async () => (await playbackState(page))?.is_playing).toBe(false);

    await miniPlayer(page).getByRole('button', { name: 'Play' }).click();
    await expect(miniPlayer(page).getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect.poll(async () => (await playbackState(page))?.is_playing).toBe(true);
  });

  await test.step('next plays what follows in the feed', async () => {
    const before = (await playbackState(page))?.item?.track.id;
    await miniPlayer(page).getByRole('button', { name: 'Next' }).click();
    await expect
      .poll(async () => (await playbackState(page))?.item?.track.id, { timeout: 20_000 })
      .not.toBe(before);
    const next = await playbackState(page);
    expect(next?.is_playing).toBe(true);
    await expect(
      miniPlayer(page).getByRole('link', { name: next?.item?.track.title ?? '' }),
    ).toBeVisible({ timeout: 20_000 });
    await miniPlayer(page).getByRole('button', { name: 'Pause' }).click();
  });

  await test.step('a track page plays its own track', async () => {
    const current = (await playbackState(page))?.item?.track.title;
    // In-app navigation: a reload would take the web player (a device) away with the page.
    await page.getByRole('link', { name: 'Recents' }).first().click();
    await expect(feedRows(page).first()).toBeVisible();
    // Text content (see `rowText`): rows out of sight are not laid out.
    const titles = (await rowTitleLink(feedRows(page)).allTextContents()).map((t) => t.trim());
    const index = titles.findIndex((t) => t !== current);
    expect(index, 'a row of another track').toBeGreaterThanOrEqual(0);
    const otherTitle = titles[index]!;
    await rowTitleLink(feedRows(page).nth(index)).click();
    await expect(page).toHaveURL(/\/track\//);
    await page
      .getByRole('main')
      .getByRole('button', { name: `Play ${otherTitle}`, exact: true })
      .click();
    await expect(miniPlayer(page).getByRole('link', { name: otherTitle })).toBeVisible();
    await expect
      .poll(async () => (await playbackState(page))?.item?.track.title, { timeout: 20_000 })
      .toBe(otherTitle);
    await miniPlayer(page).getByRole('button', { name: 'Pause' }).click();
    await expect(miniPlayer(page).getByRole('button', { name: 'Play' })).toBeVisible();
  });
});

test('a listener on the free plan sees no play, pause or next', async ({ browser, baseURL }) => {
  // One who is listening on their own devices: the mini player shows what they hear.
  const listening = demoPerson('free', true);
  const listener = listening ?? demoPerson('free', false);
  expect(listener, 'a free demo person').toBeDefined();
  if (!listener) return;

  const page = await logInNewContext(browser, baseURL, listener, { next: '/recent/me' });
  await waitForActivityOf(page.request, [listener]);
  await page.goto('/recent/me');
  await expect(feedRows(page).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Play / })).toHaveCount(0);
  if (listening) {
    await expect(miniPlayer(page).getByRole('progressbar')).toBeVisible({ timeout: 25_000 });
  }
  await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0);
  await page.context().close();
});
