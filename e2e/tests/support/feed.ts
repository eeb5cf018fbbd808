import type { Locator, Page } from '@playwright/test';

/** The page size of the Recent and Likes feeds (docs/product.md §9, `ACTIVITY_PAGE_SIZE`). */
export const FEED_PAGE_SIZE = 30;

export const SEARCH_PLACEHOLDER = 'Search title, album, artist, user or date';

/** The rows of a feed page's list ("Recent Activity" or "Likes"). */
export function feedRows(page: Page, title: 'Recent Activity' | 'Likes' = 'Recent Activity') {
  return page.getByRole('list', { name: title, exact: true }).getByRole('listitem');
}

/**
 * The user-name link of each row: it leads to that user's feed page (`/recent/me` for the
 * viewer, `/recent/user/{username}` for others).
 */
export function rowUserLinks(rows: Locator): Locator {
  return rows.locator(
    'a[href^="/recent/me"], a[href^="/recent/user/"], a[href^="/likes/me"], a[href^="/likes/user/"]',
  );
}

/** The distinct user names shown by the rows loaded so far (text content: see `rowText`). */
export async function shownUserNames(rows: Locator): Promise<string[]> {
  return [...new Set((await rowUserLinks(rows).allTextContents()).map((name) => name.trim()))];
}

/**
 * The text of a row's element, trimmed. `textContent`, not `innerText`: rows are laid out only
 * once the browser has seen them near the screen (`content-visibility: auto`), and Chromium gives
 * a row not laid out yet no `innerText`.
 */
export async function rowText(element: Locator): Promise<string> {
  return ((await element.textContent()) ?? '').trim();
}

/** The track title link of a row (`/track/{id}`). */
export function rowTitleLink(row: Locator): Locator {
  return row.locator('a[href^="/track/"]');
}

/** A search-insensitive form of a text: lower case, accents folded (as `q` matches). */
export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * A word of a track title that makes a selective search: the longest run of at least four
 * letters, else the whole title.
 */
export function searchWordOf(title: string): string {
  const words = title.match(/\p{L}{4,}/gu) ?? [];
  return words.sort((a, b) => b.length - a.length)[0] ?? title.trim();
}
