import { expect, test } from '@playwright/test';
import { feedRows, rowText, rowTitleLink } from './support/feed';
import { PEOPLE, logIn, waitForActivityOf } from './support/session';
import { aRelease } from './support/world';

// Issue 13, end to end: every track, album and artist link of a Recent row leads to its page,
// the artist page's tabs, the not-found pages and the playlists page, in the demo world.

/** A base62 id no catalogue holds. */
const UNKNOWN_ID = 'zzzzzzzzzzzzzzzzzzzzzz';

test('from a Recent row to the track, its album, its artist and each tab', async ({ page }) => {
  await logIn(page, PEOPLE.mara);
  await waitForActivityOf(page.request, [PEOPLE.mara]);
  await page.goto('/recent/me');
  const row = feedRows(page).first();
  const title = await rowText(rowTitleLink(row));

  await test.step('the track page', async () => {
    await rowTitleLink(row).click();
    await expect(page).toHaveURL(/\/track\/[0-9A-Za-z]+$/);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByLabel('Duration')).toHaveText(/^\d+:\d\d$/);
    await expect(page.getByText(/^\d+ likes?$/)).toBeVisible();
    await expect(page.getByRole('button', { name: `Like ${title}` })).toBeVisible();
    await expect(page.getByText(/^You played this track (once|[\d,]+ times)\.$/)).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(` by .+ - Earshot$`));
  });

  let albumName = '';
  await test.step('its album', async () => {
    const albumLink = page.locator('.catalogue-header a[href^="/album/"]');
    albumName = (await albumLink.innerText()).trim();
    await albumLink.click();
    await expect(page).toHaveURL(/\/album\/[0-9A-Za-z]+$/);
    await expect(page.getByRole('heading', { level: 1, name: albumName })).toBeVisible();
    const tracks = page.getByRole('list', { name: `Tracks of ${albumName}` });
    await expect(tracks.getByRole('link', { name: title, exact: true })).toBeVisible();
    await expect(page.getByLabel('Release year')).toHaveText(/^\d{4}$/);
  });

  await test.step('its artist and each tab', async () => {
    const artistLink = page.locator('.catalogue-header__artists a').first();
    const artistName = (await artistLink.innerText()).trim();
    await artistLink.click();
    await expect(page).toHaveURL(/\/artist\/[0-9A-Za-z]+$/);
    await expect(page.getByRole('heading', { level: 1, name: artistName })).toBeVisible();
    // The follow state is known for a logged-in viewer: one of the two buttons shows.
    await expect(
      page
        .getByRole('button', { name: 'Follow', exact: true })
        .or(page.getByRole('button', { name: 'Following', exact: true })),
    ).toBeVisible();
    const tabs = page.getByRole('navigation', { name: 'Artist sections' });
    await expect(page.getByRole('list', { name: `Tracks by ${artistName}` })).toBeVisible();

    await tabs.getByRole('link', { name: /^Likes/ }).click();
    await expect(page).toHaveURL(/\/artist\/[0-9A-Za-z]+\/likes$/);
    await expect(
      page
        .getByRole('list', { name: `Your liked tracks by ${artistName}` })
        .or(page.getByText(`You haven't liked any tracks by ${artistName} yet.`)),
    ).toBeVisible();

    await tabs.getByRole('link', { name: /^Albums/ }).click();
    await expect(page).toHaveURL(/\/artist\/[0-9A-Za-z]+\/albums$/);
    const albums = page.getByRole('list', { name: `Albums by ${artistName}` });
    await expect(albums.getByRole('link').first()).toBeVisible();

    await tabs.getByRole('link', { name: /^Tracks/ }).click();
    await expect(page).toHaveURL(/\/artist\/[0-9A-Za-z]+$/);
  });

  const artistName = (await page.getByRole('heading', { level: 1 }).first().innerText()).trim();

  await test.step('following and unfollowing the artist', async () => {
    const follow = page.getByRole('button', { name: 'Follow', exact: true });
    const following = page.getByRole('button', { name: 'Following', exact: true });
    const wasFollowing = await following.isVisible();
    await (wasFollowing ? following : follow).click();
    await expect(wasFollowing ? follow : following).toBeVisible();
    await (wasFollowing ? follow : following).click();
    await expect(wasFollowing ? following : follow).toBeVisible();
  });

  await test.step("on a phone the header's ignore button keeps its words", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    const actions = page.locator('.catalogue-header__actions');
    const ignore = actions
      .getByRole('button', { name: `Ignore ${artistName}` })
      .or(actions.getByRole('button', { name: 'Add back' }));
    await expect(ignore).toBeVisible();
    // Not the rows' round, icon-only button: its word would spill out of a 32 px circle.
    const fits = await ignore.evaluate(
      (button) => button.scrollWidth <= button.clientWidth && button.clientWidth > 48,
    );
    expect(fits).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

test.describe('straight from the server', () => {
  // Once the service worker controls the page it answers every navigation with the app shell
  // (200), as it must offline; the status is the server's, which crawlers and first visits get.
  test.use({ serviceWorkers: 'block' });

  test('the per-entity not-found pages', async ({ page }) => {
    for (const [path, heading] of [
      ['track', 'Track Not Found'],
      ['album', 'Album Not Found'],
      ['artist', 'Artist Not Found'],
      ['playlist', 'Playlist Not Found'],
    ] as const) {
      const response = await page.goto(`/${path}/${UNKNOWN_ID}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page).toHaveTitle(`${heading} - Earshot`);
    }
  });
});

test('a visitor opening a shared album link sees it whole, titled before the app starts', async ({
  page,
}) => {
  const release = aRelease(4);
  const response = await page.goto(`/album/${release.id}`);
  expect(response?.status()).toBe(200);
  // The server's own head tags, as a link preview reads them without JavaScript.
  const html = (await response?.text()) ?? '';
  expect(html).toMatch(new RegExp(`<title data-server-meta>[^<]+ by [^<]+ - Earshot</title>`));
  expect(html).toContain('"@type":"MusicAlbum"');
  await expect(page.getByRole('heading', { level: 1, name: release.name })).toBeVisible();
  // Filled from Spotify with Earshot's own token: every track, not only those someone played.
  await expect(
    page.getByRole('list', { name: `Tracks of ${release.name}` }).getByRole('listitem'),
  ).toHaveCount(release.trackCount);
});

test("the playlists page lists Mara's playlists and opens one", async ({ page }) => {
  await logIn(page, PEOPLE.mara);
  await page.getByRole('button', { name: `Account menu for ${PEOPLE.mara.name}` }).click();
  await page.getByRole('menuitem', { name: 'Playlists' }).click();
  await expect(page).toHaveURL(/\/playlists$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Playlists' })).toBeVisible();
  await expect(page.getByText(/^\d+ playlists?$/)).toBeVisible();
  const first = page.locator('.playlist-card__name').first();
  const name = (await first.innerText()).trim();
  await first.click();
  await expect(page).toHaveURL(/\/playlist\/[0-9A-Za-z]+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(
    page
      .getByRole('list', { name: `Tracks of ${name}` })
      .getByRole('listitem')
      .first(),
  ).toBeVisible();
});
