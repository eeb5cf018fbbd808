import { expect, test, type Locator } from '@playwright/test';
import { logIn } from './support/session';

/** A demo account of the sandbox (`packages/spotify-sandbox/src/world/demo-accounts.ts`). */
const PRIYA = { id: '31ugbq6xn2r7cfy4d5kzsmhwtaoe', name: 'Priya Raman' };

/** The value next to a figure's label on the import page ("Plays added" → "1,234"). */
function figure(container: Locator, label: string): Locator {
  return container.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
}

function countOf(text: string | null): number {
  return Number((text ?? '').replace(/\D/g, ''));
}

test('a user imports the extended streaming history downloaded from the privacy page', async ({
  page,
}, testInfo) => {
  // Log in through the sandbox's authorization page, coming back to the import page.
  await logIn(page, PRIYA, '/spotify/import');
  await expect(page.getByRole('heading', { name: 'Import your listening history' })).toBeVisible();
  await expect(page).toHaveTitle('Import your listening history - Earshot');

  const uploadCard = page.locator('section', {
    has: page.getByRole('heading', { name: 'Upload your export' }),
  });
  await expect(figure(uploadCard, 'Last upload')).toHaveText('Never');
  await expect(figure(uploadCard, 'Plays imported')).toHaveText('0');
  const upload = page.getByRole('button', { name: 'Upload', exact: true });
  await expect(upload).toBeDisabled();

  // Spotify's "Privacy → Download your data", as the sandbox serves it.
  await page.goto(`/sandbox/privacy?account=${PRIYA.id}`);
  const downloading = page.waitForEvent('download');
  await page
    .locator('form[action$="extended-streaming-history.zip"]')
    .getByRole('button', { name: 'Download', exact: true })
    .click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('my_spotify_data.zip');
  const zipPath = testInfo.outputPath('my_spotify_data.zip');
  await download.saveAs(zipPath);

  // Upload it, then watch the import run.
  await page.goto('/spotify/import');
  await page.getByLabel('Spotify export (.zip)').setInputFiles(zipPath);
  await expect(upload).toBeEnabled();
  await upload.click();
  await expect(page.getByRole('status').filter({ hasText: 'Upload received' })).toBeVisible();

  const bar = page.getByRole('progressbar', { name: 'Import progress' });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuetext', /^\d+ of [1-9]\d* files$/);
  await expect(upload).toBeDisabled();

  // The summary: plays added and why the other rows were skipped.
  const summaryHeading = page.getByRole('heading', { name: 'Your last import' });
  await expect(summaryHeading).toBeVisible({ timeout: 40_000 });
  await expect(bar).toBeHidden();
  const summary = page.locator('section', { has: summaryHeading });
  const playsAdded = countOf(await figure(summary, 'Plays added').textContent());
  expect(playsAdded).toBeGreaterThan(0);
  expect(countOf(await figure(summary, 'Rows read').textContent())).toBeGreaterThanOrEqual(
    playsAdded,
  );
  expect(countOf(await figure(summary, 'Rows skipped').textContent())).toBeGreaterThan(0);
  const reasons = summary
    .locator('section', { has: page.getByRole('heading', { name: 'Why rows were skipped' }) })
    .locator('dt');
  await expect(reasons.first()).toBeVisible();
  expect(await reasons.allTextContents()).toContain('Shorter than 30 s');

  // The totals follow, and the cool-down (1 hour by default) locks the next upload.
  await expect(figure(uploadCard, 'Plays imported')).toHaveText(playsAdded.toLocaleString('en'));
  await expect(figure(uploadCard, 'Last upload')).not.toHaveText('Never');
  await expect(
    page.getByText(
      /^Extended history import is temporarily unavailable\. Please try again in (1 hour|59 minutes)\.$/,
    ),
  ).toBeVisible();
  await page.getByLabel('Spotify export (.zip)').setInputFiles(zipPath);
  await expect(upload).toBeDisabled();
});
