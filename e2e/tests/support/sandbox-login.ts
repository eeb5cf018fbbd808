import { expect, type Page } from '@playwright/test';

/**
 * On the sandbox's authorization page: picks the demo account and consents. Like Spotify, the
 * sandbox skips the consent step for an app the account already allowed (the demo world
 * connects every account at first start), so "Allow" is clicked only when it is asked.
 */
export async function chooseSandboxAccount(page: Page, displayName: string): Promise<void> {
  await expect(page).toHaveURL(/\/sandbox\/accounts\/authorize/);
  await page.getByRole('button', { name: new RegExp(displayName) }).click();
  const allow = page.getByRole('button', { name: 'Allow' });
  await expect(allow.or(page.getByRole('banner'))).toBeVisible();
  if (await allow.isVisible()) await allow.click();
}
