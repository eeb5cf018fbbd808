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
