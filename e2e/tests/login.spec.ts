import { expect, test } from '@playwright/test';
import { approveOnSandbox } from './support/session';

test('a visitor connects through the sandbox, sees the app shell and logs out', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Earshot/);
  await page.getByRole('button', { name: 'Connect with Spotify' }).click();

  // The sandbox's Spotify authorization page: pick a demo account, then consent.
  await expect(page).toHaveURL(/\/sandbox\/accounts\/authorize\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('state')).toBeTruthy();
  await approveOnSandbox(page, 'Mara Lindqvist');

  // Back on Earshot, logged in; the spotify=connected flag is removed from the address.
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  expect(new URL(page.url()).search).toBe('');
  const menu = page.getByRole('button', { name: /Account menu for Mara Lindqvist/ });
  await expect(menu).toBeVisible();
  await menu.click();
  await expect(page.getByRole('menu')).toContainText('Mara Lindqvist');
  await expect(page.getByRole('menu')).toContainText('mara.lindqvist@example.com');

  // Hold the logout request so its pending text can be seen.
  let releaseLogout: () => void = () => {};
  const logoutHeld = new Promise<void>((resolve) => (releaseLogout = resolve));
  await page.route('**/api/logout', async (route) => {
    await logoutHeld;
    await route.continue();
  });
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByText('Logging out...')).toBeVisible();
  releaseLogout();

  await expect(page.getByRole('button', { name: 'Connect with Spotify' })).toBeVisible();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  const me = await page.request.get('/api/user/me');
  expect(me.status()).toBe(401);
});

test('a logged-out visit to a page that needs login comes back to it after connecting', async ({
  page,
}) => {
  await page.goto('/login?next=%2F%3Ffrom%3Dlogin');
  await page.getByRole('button', { name: 'Connect with Spotify' }).click();
  await approveOnSandbox(page, 'Tomás Ferreira');
  await expect(page.getByRole('button', { name: /Account menu for Tomás Ferreira/ })).toBeVisible();
  expect(new URL(page.url()).search).toBe('?from=login');
});
