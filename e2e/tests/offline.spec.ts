import { expect, test, type Locator, type Page } from '@playwright/test';
import { FEED_PAGE_SIZE, feedRows, rowText, rowTitleLink } from './support/feed';
import { MARA_FRIENDS, PEOPLE, logIn, waitForActivityOf } from './support/session';

// Issue 18, installable and offline: after a first visit the app opens without a network,
// signed in, with the feed as last seen, marked as not live; a like made offline is refused.

const OFFLINE_BANNER = /^You are offline\./;
const OFFLINE_WRITE_MESSAGE =
  'You are offline: nothing was changed. Try again when you are back online.';

// Run in the page (strings: this project's types know no DOM).

/** Whether the service worker controls the page: its precache serves the app's files. */
function isControlled(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('navigator.serviceWorker.controller !== null');
}

/** Whether the app has written its copies of the pages seen to IndexedDB. */
function hasSavedPages(page: Page): Promise<boolean> {
  return page.evaluate<boolean>("localStorage.getItem('earshot.savedQueries') !== null");
}

/** The title of the first row of the Recent feed as the app has saved it, or null. */
function savedFirstTitle(page: Page): Promise<string | null> {
  return page.evaluate<string | null>(`new Promise((resolve) => {
    const opening = indexedDB.open('earshot-offline');
    opening.onerror = () => resolve(null);
    opening.onsuccess = () => {
      const reading = opening.result
        .transaction('saved-queries')
        .objectStore('saved-queries')
        .get('queries');
      reading.onerror = () => resolve(null);
      reading.onsuccess = () => {
        const feed = (reading.result?.queries ?? []).find(
          (query) => query.queryKey[0] === 'activity' && query.queryKey[1] === 'recent',
        );
        resolve(feed?.state.data?.pages[0]?.items[0]?.track.title ?? null);
      };
    };
  })`);
}

/** The addresses the service worker keeps pictures under. */
function cachedImages(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(
    "caches.open('earshot-images').then((cache) => cache.keys()).then((keys) => keys.map((request) => request.url))",
  );
}

/** Whether an image element is drawn (loaded, with a size). */
function isDrawn(image: Locator): Promise<boolean> {
  return image.evaluate<boolean, { complete: boolean; naturalWidth: number }>(
    (element) => element.complete && element.naturalWidth > 0,
  );
}

test('offline, Recent opens signed in with its saved rows, and a like is refused', async ({
  page,
  context,
}) => {
  const rows = feedRows(page);
  const accountMenu = page.getByRole('button', { name: `Account menu for ${PEOPLE.mara.name}` });
  const firstCover = rows.first().locator('img').first();
  let firstTitle = '';
  let coverUrl = '';

  await test.step('a first visit online: the feed, saved, the service worker in control', async () => {
    await logIn(page, PEOPLE.mara);
    await waitForActivityOf(page.request, [PEOPLE.mara, ...MARA_FRIENDS]);
    await page.goto('/');
    await expect(rows).toHaveCount(FEED_PAGE_SIZE);
    await expect(page.getByText(OFFLINE_BANNER)).toHaveCount(0);
    await expect.poll(() => isControlled(page), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => hasSavedPages(page)).toBe(true);
    // A reload under the worker's control: the covers now pass through it and are kept.
    await page.reload();
    await expect(rows).toHaveCount(FEED_PAGE_SIZE);
    // The first row's title and cover read together: plays arriving live may change the top.
    [firstTitle, coverUrl] = await Promise.all([
      rowText(rowTitleLink(rows.first())),
      firstCover.getAttribute('src').then((src) => src ?? ''),
    ]);
    expect(coverUrl).not.toBe('');
    await expect.poll(() => cachedImages(page)).toContain(coverUrl);
    // Saved as shown (one write a second after a change), before the network goes.
    await expect.poll(() => savedFirstTitle(page)).toBe(firstTitle);
  });

  await test.step('offline, a reload keeps the shell and shows the saved feed', async () => {
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText(OFFLINE_BANNER)).toBeVisible();
    await expect(accountMenu).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Recent Activity' })).toBeVisible();
    // Every page of the feed loaded when it was saved (at least the first).
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(FEED_PAGE_SIZE);
    await expect(rowTitleLink(rows.first())).toHaveText(firstTitle);
    await expect(page.getByText(/^Saved copy from .+, not live\.$/)).toBeVisible();
    await expect(firstCover).toHaveAttribute('src', coverUrl);
    await expect.poll(() => isDrawn(firstCover)).toBe(true);
  });

  await test.step('a like offline is refused with a message and changes nothing', async () => {
    const likes: string[] = [];
    // The context's requests: the page's and its service worker's own.
    context.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/like') likes.push(request.method());
    });
    const button = rows.first().getByRole('button', { name: /^Like / });
    const before = await button.getAttribute('aria-pressed');
    // Back online the feed is live again, and newer plays may be on top: the track's own button.
    const sameTrack = rows
      .getByRole('button', { name: (await button.getAttribute('aria-label')) ?? '', exact: true })
      .first();
    await button.click();
    await expect(page.getByText(OFFLINE_WRITE_MESSAGE)).toBeVisible();
    await expect(button).toHaveAttribute('aria-pressed', before ?? 'false');
    await expect(button).toBeEnabled();

    // Back online, nothing queued is sent behind the user's back, and the page is live again.
    await context.setOffline(false);
    await expect(page.getByText(OFFLINE_BANNER)).toHaveCount(0);
    await expect(page.getByText(/^Saved copy from/)).toHaveCount(0);
    await expect(sameTrack).toHaveAttribute('aria-pressed', before ?? 'false');
    expect(likes).toEqual([]);
  });

  await test.step('logging out deletes the saved pages and pictures', async () => {
    await accountMenu.click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
    expect(await hasSavedPages(page)).toBe(false);
    expect(await page.evaluate<boolean>("caches.has('earshot-images')")).toBe(false);
  });
});
