import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { PEOPLE, logInNewContext } from './support/session';

// Issue 16, end to end: "Download my data" runs as a job in the server, shows its progress,
// still shows it after a reload, and ends with a ZIP the browser downloads.

test('a listener downloads their data as a ZIP made in the background', async ({
  browser,
  baseURL,
}) => {
  const page = await logInNewContext(browser, baseURL, PEOPLE.lukas, { next: '/settings' });
  const card = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Download my data' }) });
  await card.getByRole('button', { name: 'Download my data' }).click();
  // Either still at work or already done: a demo history is written in moments.
  await expect(
    card
      .getByRole('progressbar', { name: 'Export progress' })
      .or(card.getByText(/^Your data is ready/)),
  ).toBeVisible();
  await expect(card.getByText(/^Your data is ready: .+ ZIP, until /)).toBeVisible({
    timeout: 60_000,
  });

  // The state is the server's: a reload shows the same export.
  await page.reload();
  const link = card.getByRole('link', { name: 'Download ZIP' });
  await expect(link).toBeVisible();
  const downloading = page.waitForEvent('download');
  await link.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^earshot-lukas-novak-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = await readFile(await download.path());
  // A ZIP (its local file header), holding the plays as CSV.
  expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  expect(zip.includes(Buffer.from('plays.csv'))).toBe(true);
});
