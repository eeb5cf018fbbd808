import { expect, test, type Page } from '@playwright/test';
import {
  PEOPLE,
  ensureNotConnected,
  logIn,
  logInNewContext,
  waitForUser,
  type Person,
} from './support/session';

// Issue 4, end to end: friendships made in the UI, what profiles show by role, and settings.
// Aiko Tanaka and Tomás Ferreira are not connected in the demo world.

const FRIEND_BUTTON_TEXTS = /^(Add friend|Request sent|✓ Friends|Respond pending)$/;
const HIGHLIGHT_LISTS = ['Top songs · last 30 days', 'Top songs · all time', 'Top artists'];

function profileHeading(page: Page, person: Person) {
  return page.getByRole('heading', { level: 1, name: person.name });
}

/** The first entry's rank as a medal names it. */
const RANK_1 = 'Rank 1, gold medal';

/**
 * Waits for the Top Highlights of the open profile to have entries: the profile is fetched
 * once, so it is reloaded until the background sync has captured the owner's plays.
 */
async function expectTopHighlights(page: Page): Promise<void> {
  const highlights = page.getByRole('region', { name: 'Top Highlights' });
  let attempts = 0;
  await expect(async () => {
    if (attempts++ > 0) await page.reload();
    // A first entry in each of the three lists.
    await expect(highlights.getByRole('img', { name: RANK_1, exact: true })).toHaveCount(
      HIGHLIGHT_LISTS.length,
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000, 3_000] });

  for (const title of HIGHLIGHT_LISTS) {
    const list = highlights
      .locator('section')
      .filter({ has: page.getByRole('heading', { level: 3, name: title }) });
    const top = list.getByRole('listitem').first();
    // The medal is drawn in CSS around its number (no emoji font needed).
    await expect(top.getByRole('img', { name: RANK_1, exact: true })).toHaveText('1');
    await expect(top).toContainText(/\d+ plays?/);
    await expect(top.getByRole('button', { name: /^Ignore / })).toBeEnabled();
  }
}

/** The row of `other` in the open Friends page, as an accepted friend (their actions menu). */
async function expectFriendRow(page: Page, other: Person): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Friends' })).toBeVisible();
  const row = page.getByRole('row').filter({
    has: page.getByRole('link', { name: other.username, exact: true }),
  });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(other.name);
  await expect(row.getByRole('button', { name: `Actions for ${other.username}` })).toBeVisible();
  await expect(row).not.toContainText(/Requested|Incoming request/);
}

test('two listeners befriend each other in the UI, then see each other’s Top Highlights', async ({
  page: aiko,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await logIn(aiko, PEOPLE.aiko);
  await waitForUser(aiko.request, PEOPLE.tomas);
  await ensureNotConnected(aiko.request, PEOPLE.tomas);

  await test.step('Aiko, not a friend, sees Tomás’s stats only, and asks', async () => {
    await aiko.goto(`/user/${PEOPLE.tomas.username}`);
    await expect(profileHeading(aiko, PEOPLE.tomas)).toBeVisible();
    await expect(aiko.getByRole('region', { name: 'Stats' })).toBeVisible();
    await expect(aiko.getByRole('region', { name: 'Top Highlights' })).toHaveCount(0);
    await aiko.getByRole('button', { name: 'Add friend' }).click();
    await expect(aiko.getByRole('button', { name: 'Request sent' })).toBeDisabled();
  });

  const tomas = await logInNewContext(browser, baseURL, PEOPLE.tomas);
  await test.step('Tomás accepts from the bell panel', async () => {
    await tomas.getByRole('button', { name: /^Notifications \(\d+\)$/ }).click();
    const panel = tomas.getByRole('dialog');
    const request = panel.getByText(`@${PEOPLE.aiko.username} wants to be friends`);
    await expect(request).toBeVisible();
    await panel
      .getByRole('button', { name: `Accept friend request from ${PEOPLE.aiko.username}` })
      .click();
    await expect(
      tomas.getByRole('status').filter({ hasText: `You and ${PEOPLE.aiko.name} are now friends.` }),
    ).toBeVisible();
    await expect(request).toHaveCount(0);
    await tomas.keyboard.press('Escape');
    await expect(panel).toBeHidden();
  });

  await test.step('Tomás sees Aiko as a friend, with her Top Highlights', async () => {
    await tomas.goto(`/user/${PEOPLE.aiko.username}`);
    await expect(profileHeading(tomas, PEOPLE.aiko)).toBeVisible();
    await expect(tomas.getByRole('button', { name: '✓ Friends' })).toBeDisabled();
    await expectTopHighlights(tomas);
  });

  await test.step('Aiko sees Tomás as a friend, with his Top Highlights', async () => {
    await aiko.reload();
    await expect(profileHeading(aiko, PEOPLE.tomas)).toBeVisible();
    await expect(aiko.getByRole('button', { name: '✓ Friends' })).toBeDisabled();
    await expectTopHighlights(aiko);
  });

  await test.step('each one’s Friends page lists the other', async () => {
    await aiko.goto('/friends');
    await expectFriendRow(aiko, PEOPLE.tomas);
    await tomas.goto('/friends');
    await expectFriendRow(tomas, PEOPLE.aiko);
  });
  await tomas.context().close();
});

test('a visitor sees a profile’s stats, but no Top Highlights and no friend button', async ({
  page,
}) => {
  await waitForUser(page.request, PEOPLE.tomas);
  await page.goto(`/user/${PEOPLE.tomas.username}`);
  await expect(profileHeading(page, PEOPLE.tomas)).toBeVisible();
  await expect(page.getByText(`@${PEOPLE.tomas.username}`)).toBeVisible();
  const stats = page.getByRole('region', { name: 'Stats' });
  await expect(stats).toBeVisible();
  for (const label of ['Total likes', 'Total plays', 'Total listening time', 'Tracking since']) {
    await expect(stats.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('region', { name: 'Top Highlights' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: FRIEND_BUTTON_TEXTS })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
});

test('Settings edits the username: rules, "Saved", and the new profile address', async ({
  page,
}) => {
  const person = PEOPLE.lukas;
  // Unique per run, so a retry on the same server still changes it.
  const newUsername = `${person.username}-${Date.now().toString(36)}`;
  await waitForUser(page.request, PEOPLE.mara);
  await logIn(page, person, '/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

  const editor = page.getByRole('textbox', { name: 'Username', exact: true });
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await expect(editor).toHaveValue(new RegExp(`^${person.username}`));
  await expect(save).toBeDisabled();

  await editor.fill('   ');
  await save.click();
  await expect(page.getByRole('alert')).toHaveText('Username cannot be empty.');

  // Usernames are unique case-insensitively.
  await editor.fill(PEOPLE.mara.username.toUpperCase());
  await save.click();
  await expect(page.getByRole('alert')).toHaveText('That username is taken.');

  await editor.fill(`  ${newUsername}  `);
  await save.click();
  const saved = page.getByRole('status').filter({ hasText: 'Saved' });
  await expect(saved).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(editor).toHaveValue(newUsername);
  await expect(page.getByRole('textbox', { name: 'Public profile link' })).toHaveValue(
    new RegExp(`/user/${newUsername}$`),
  );
  // "Saved" goes after 2 s.
  await expect(saved).toHaveCount(0);

  await page.getByRole('link', { name: 'View your public profile' }).click();
  await expect(page).toHaveURL(new RegExp(`/user/${newUsername}$`));
  await expect(page.getByText(`@${newUsername}`)).toBeVisible();
});
