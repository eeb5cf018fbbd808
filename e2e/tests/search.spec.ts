import { expect, test, type Page } from '@playwright/test';
import { feedRows, rowTitleLink } from './support/feed';
import { PEOPLE, escapeRegExp, logIn, waitForActivityOf } from './support/session';

// Issue 13, end to end: the search modal. Mara Lindqvist searches a track she sees in her feed
// and her friend Tomás Ferreira, opening each result.

function searchDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Search' });
}

/** The results of one type in the open modal (Tracks, Albums, Artists, Users). */
function resultGroup(page: Page, heading: string) {
  return searchDialog(page).getByRole('group', { name: heading });
}

test('search from the header button and the / key, then open a track and a friend', async ({
  page,
}, testInfo) => {
  await logIn(page, PEOPLE.mara);
  await waitForActivityOf(page.request, [PEOPLE.mara, PEOPLE.tomas]);
  await page.goto('/');
  const firstRow = feedRows(page).first();
  await expect(firstRow).toBeVisible();
  const trackLink = rowTitleLink(firstRow);
  const title = (await trackLink.textContent())?.trim() ?? '';
  const trackPath = (await trackLink.getAttribute('href')) ?? '';
  expect(title).not.toBe('');

  await test.step('the header button opens the modal over the page; the path follows', async () => {
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(searchDialog(page)).toBeVisible();
    await expect(page).toHaveURL(/\/search\/$/);
    // The feed stays under the modal (hidden from assistive tech while the modal is open).
    await expect(
      page.getByRole('heading', { level: 1, name: 'Recent Activity', includeHidden: true }),
    ).toBeVisible();
    await page.getByRole('combobox', { name: 'Search' }).fill(title);
    await expect(page).toHaveURL(`/search/${encodeURIComponent(title)}`);
    const track = resultGroup(page, 'Tracks').getByRole('option', {
      name: new RegExp(escapeRegExp(title)),
    });
    await expect(track.first()).toBeVisible();

    for (const [width, height] of [
      [1280, 900],
      [375, 812],
    ] as const) {
      await page.setViewportSize({ width, height });
      const path = testInfo.outputPath(`search-modal-${width}.png`);
      await page.screenshot({ path });
      await testInfo.attach(`search-modal-${width}`, { path, contentType: 'image/png' });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.keyboard.press('Escape');
    await expect(searchDialog(page)).toBeHidden();
    await expect(page).toHaveURL('/');
  });

  await test.step('Enter opens the track chosen with the arrows', async () => {
    await page.keyboard.press('/');
    await expect(searchDialog(page)).toBeVisible();
    await page.keyboard.type(title);
    const options = searchDialog(page).getByRole('option');
    await expect(searchDialog(page).locator(`[role="option"][href="${trackPath}"]`)).toHaveCount(1);
    // Other versions of the song may rank first: the arrows go down to the one from the feed.
    const hrefs = await options.evaluateAll((links) =>
      links.map((link) => link.getAttribute('href')),
    );
    await expect(page.getByRole('option', { selected: true })).toHaveAttribute('href', hrefs[0]!);
    for (let step = 0; step < hrefs.indexOf(trackPath); step++) {
      await page.keyboard.press('ArrowDown');
    }
    await expect(page.getByRole('option', { selected: true })).toHaveAttribute('href', trackPath);
    await page.keyboard.press('Enter');
    // The track page is built by the catalogue work; the address is what search decides.
    await expect(page).toHaveURL(trackPath);
    await expect(searchDialog(page)).toBeHidden();
  });

  await test.step('a friend found by an unaccented part of the name opens their profile', async () => {
    await page.goto('/');
    // The app renders its first page in a transition: the shortcut listens once it is there.
    await expect(page.getByRole('heading', { level: 1, name: 'Recent Activity' })).toBeVisible();
    await page.keyboard.press('/');
    await page.getByRole('combobox', { name: 'Search' }).fill('tomas');
    const friend = resultGroup(page, 'Users').getByRole('option', {
      name: new RegExp(PEOPLE.tomas.name),
    });
    await expect(friend).toContainText(PEOPLE.tomas.username);
    await friend.click();
    await expect(page).toHaveURL(`/user/${PEOPLE.tomas.username}`);
    await expect(page.getByRole('heading', { level: 1, name: PEOPLE.tomas.name })).toBeVisible();
    await expect(page.getByRole('button', { name: '✓ Friends' })).toBeVisible();
  });
});

test('a visitor opens /search/{query} directly and finds a listener', async ({ page }) => {
  // The demo world's people exist once the server has created it, in the background.
  await expect
    .poll(async () => {
      const answer = await page.request.get('/api/search?q=tomas');
      return answer.ok() ? ((await answer.json()) as { users: unknown[] }).users.length : 0;
    })
    .toBeGreaterThan(0);
  await page.goto(`/search/${encodeURIComponent('Tomás')}`);
  await expect(searchDialog(page)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Search' })).toHaveValue('Tomás');
  await expect(
    resultGroup(page, 'Users').getByRole('option', { name: new RegExp(PEOPLE.tomas.name) }),
  ).toBeVisible();
  await page.getByRole('combobox', { name: 'Search' }).fill('zzqxv');
  await expect(searchDialog(page).getByText('No results found for "zzqxv"')).toBeVisible();
  await page.getByRole('button', { name: 'Close search' }).click();
  await expect(page).toHaveURL('/');
});
