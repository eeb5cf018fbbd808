import { expect, test, type Page } from '@playwright/test';
import {
  FEED_PAGE_SIZE,
  SEARCH_PLACEHOLDER,
  feedRows,
  foldForSearch,
  rowText,
  rowTitleLink,
  rowUserLinks,
  searchWordOf,
  shownUserNames,
} from './support/feed';
import { MARA_FRIENDS, PEOPLE, logIn, logInNewContext, waitForActivityOf } from './support/session';

// Issue 5, end to end: Mara Lindqvist's friends feed in the demo world (friends with Tomás,
// Jonas, Olivia and Camille; Chidi and Seo-yeon have requests waiting; she asked Sofía).

const CIRCLE_NAMES: readonly string[] = [PEOPLE.mara, ...MARA_FRIENDS].map((person) => person.name);
const FRIEND_NAMES: readonly string[] = MARA_FRIENDS.map((person) => person.name);

/** Logs in as Mara and opens Recent once her and her friends' plays are in. */
async function openMarasFeed(page: Page): Promise<void> {
  await logIn(page, PEOPLE.mara);
  await waitForActivityOf(page.request, [PEOPLE.mara, ...MARA_FRIENDS]);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Recent Activity' })).toBeVisible();
}

function isFeedRequest(url: string, feed: 'recent' | 'likes'): boolean {
  return new URL(url).pathname === `/api/${feed}`;
}

/** The next answer to `POST /api/like`: the song (uid) and its final state. */
async function likeAnswer(page: Page): Promise<{ uid: string; liked: boolean }> {
  const response = await page.waitForResponse(
    (candidate) =>
      new URL(candidate.url()).pathname === '/api/like' && candidate.request().method() === 'POST',
  );
  expect(response.ok(), `POST /api/like answered ${response.status()}`).toBe(true);
  return (await response.json()) as { uid: string; liked: boolean };
}

test('the Recent feed shows Mara and her friends, scrolls for more, narrows and searches', async ({
  page,
}) => {
  await openMarasFeed(page);
  const rows = feedRows(page);

  await test.step('All: a first page of rows, of Mara and her friends only', async () => {
    await expect(rows).toHaveCount(FEED_PAGE_SIZE);
    const names = await shownUserNames(rows);
    expect(names.filter((name) => !CIRCLE_NAMES.includes(name))).toEqual([]);
  });

  await test.step('scrolling to the end loads the next page', async () => {
    await rows.last().scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count()).toBeGreaterThan(FEED_PAGE_SIZE);
    // Further down until both Mara's and a friend's plays are among the rows.
    await expect(async () => {
      await rows.last().scrollIntoViewIfNeeded();
      const names = await shownUserNames(rows);
      expect(names).toContain(PEOPLE.mara.name);
      expect(names.some((name) => FRIEND_NAMES.includes(name))).toBe(true);
      expect(names.filter((name) => !CIRCLE_NAMES.includes(name))).toEqual([]);
    }).toPass({ timeout: 20_000 });
  });

  await test.step('user names lead to their feed, `/recent/me` for Mara', async () => {
    const feedOf = new Map<string, string>([
      [PEOPLE.mara.name, '/recent/me'],
      ...MARA_FRIENDS.map((friend): [string, string] => [
        friend.name,
        `/recent/user/${friend.username}`,
      ]),
    ]);
    for (const name of await shownUserNames(rows)) {
      await expect(rowUserLinks(rows).filter({ hasText: name }).first()).toHaveAttribute(
        'href',
        feedOf.get(name) ?? 'a friend',
      );
    }
  });

  await test.step('the Friends chip shows friends only', async () => {
    const chips = page.getByRole('navigation', { name: 'Whose activity' });
    await chips.getByRole('link', { name: 'Friends', exact: true }).click();
    await expect(page).toHaveURL(/\/recent\/friends$/);
    await expect(chips.getByRole('link', { name: 'Friends', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(async () => {
      const names = await shownUserNames(rows);
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((name) => !FRIEND_NAMES.includes(name))).toEqual([]);
    }).toPass();
    await chips.getByRole('link', { name: 'All', exact: true }).click();
    await expect(page).toHaveURL(/\/recent$/);
    await expect(chips.getByRole('link', { name: 'All', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(rows.first()).toBeVisible();
  });

  await test.step('the search box narrows the feed to matching rows, through `q`', async () => {
    const title = await rowText(rowTitleLink(rows.first()));
    const word = searchWordOf(title);
    const searched: string[] = [];
    page.on('request', (request) => {
      const q = new URL(request.url()).searchParams.get('q');
      if (isFeedRequest(request.url(), 'recent') && q !== null) searched.push(q);
    });

    await page.getByRole('searchbox', { name: SEARCH_PLACEHOLDER }).pressSequentially(word);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(word)}(&|$)`));
    await expect(async () => {
      const texts = await rows.allTextContents();
      expect(texts.length).toBeGreaterThan(0);
      const unmatched = texts.filter((text) => !foldForSearch(text).includes(foldForSearch(word)));
      expect(unmatched).toEqual([]);
    }).toPass();
    await expect(rows.filter({ hasText: title }).first()).toBeVisible();
    // The search is kept by the user-name links and the chips.
    const q = `?q=${encodeURIComponent(word)}`;
    await expect(rowUserLinks(rows).first()).toHaveAttribute('href', new RegExp(`\\${q}$`));
    await expect(
      page
        .getByRole('navigation', { name: 'Whose activity' })
        .getByRole('link', { name: 'Friends', exact: true }),
    ).toHaveAttribute('href', `/recent/friends${q}`);
    // Debounced: searches for the whole word only, none for what was typed on the way.
    expect(searched.length).toBeGreaterThan(0);
    expect(searched.filter((q) => q !== word)).toEqual([]);
  });
});

test('liking a track from the feed puts it in Likes, unliking takes it out', async ({ page }) => {
  await openMarasFeed(page);
  const rows = feedRows(page);
  const firstUnliked = rows
    .filter({ has: page.getByRole('button', { name: /^Like /, pressed: false }) })
    .first();
  const href = await rowTitleLink(firstUnliked).getAttribute('href');
  expect(href).toMatch(/^\/track\//);
  // The rows of that play's track, found again after the like changes which rows are unliked.
  const row = rows.filter({ has: page.locator(`a[href="${href}"]`) }).first();
  let uid = '';

  await test.step('like it in Recent', async () => {
    const button = row.getByRole('button', { name: /^Like / });
    const answer = likeAnswer(page);
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    const liked = await answer;
    expect(liked.liked).toBe(true);
    uid = liked.uid;
    await expect(button).toBeEnabled();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  });

  // Liking saves the song's main version, whose id is the song's uid.
  const likes = feedRows(page, 'Likes');
  const likedRows = likes.filter({
    has: page.locator(`a[href="/track/${encodeURIComponent(uid)}"]`),
  });
  await test.step('it is in /likes/me, liked', async () => {
    await page.goto('/likes/me');
    await expect(page.getByRole('heading', { level: 1, name: 'Likes' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Whose activity' }).getByRole('link', { name: 'Mine' }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(likedRows).toHaveCount(1);
    await expect(likedRows.getByRole('button', { name: /^Like / })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  await test.step('unlike it there: gone from /likes/me', async () => {
    const button = likedRows.getByRole('button', { name: /^Like / });
    const answer = likeAnswer(page);
    await button.click();
    // Unliked at once: the row shows it, or (with the live stream) has already left the list.
    await expect(likedRows.getByRole('button', { name: /^Like /, pressed: true })).toHaveCount(0);
    expect(await answer).toEqual({ uid, liked: false });

    await page.reload();
    await expect(
      page.getByRole('list', { name: 'Likes', exact: true }).or(page.getByText('No likes yet.')),
    ).toBeVisible();
    await expect(likedRows).toHaveCount(0);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the feed has the bottom tab bar and usable rows', async ({ page }) => {
    await logIn(page, PEOPLE.mara);
    await waitForActivityOf(page.request, [PEOPLE.mara]);
    await page.goto('/');
    const viewport = { width: 390, height: 844 };

    const bottomBar = page.getByRole('navigation', { name: 'Main (bottom bar)' });
    await expect(bottomBar).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main', exact: true })).toBeHidden();
    const barBox = await bottomBar.boundingBox();
    expect(barBox?.y ?? 0).toBeGreaterThan(viewport.height / 2);
    expect(Math.round((barBox?.y ?? 0) + (barBox?.height ?? 0))).toBe(viewport.height);

    const row = feedRows(page).first();
    await expect(row).toBeVisible();
    const like = row.getByRole('button', { name: /^Like / });
    for (const part of [rowTitleLink(row), like]) {
      await expect(part).toBeInViewport();
      const box = await part.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
    }
    const likeBox = await like.boundingBox();
    expect(Math.min(likeBox!.width, likeBox!.height)).toBeGreaterThanOrEqual(24);
    expect(
      await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'),
    ).toBe(true);

    await bottomBar.getByRole('link', { name: 'Likes' }).tap();
    await expect(page).toHaveURL(/\/likes$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Likes' })).toBeVisible();
    await expect(bottomBar.getByRole('link', { name: 'Likes' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});

test("a signed-in first visit fetches the viewer, the feed and the feed's code with the page, once each", async ({
  browser,
  baseURL,
}) => {
  // No service worker: it answers later visits with the cached shell, which names no data.
  const page = await logInNewContext(browser, baseURL, PEOPLE.mara, { serviceWorkers: 'block' });
  await waitForActivityOf(page.request, MARA_FRIENDS);
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (['/api/user/me', '/api/ignore', '/api/recent'].includes(pathname)) {
      // The app asks for JSON; a preload, for anything.
      asked.push(
        `${pathname + search} ${request.headers()['accept'] === 'application/json' ? 'app' : 'preload'}`,
      );
    }
  });
  // Who asked for the feed page's own code: the HTML (its parser) or the app's scripts.
  const codeAskers: string[] = [];
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('Network.enable');
  devtools.on('Network.requestWillBeSent', ({ request, initiator }) => {
    const file =
      /\/assets\/(ActivityRoute|pageData|LiveCacheSync|offlinePages)-[\w-]+\.(js|css)$/.exec(
        request.url,
      );
    if (file) codeAskers.push(`${file[1]}.${file[2]} ${initiator.type}`);
  });
  await page.goto('/recent/friends');
  await expect(feedRows(page).first()).toBeVisible();
  // The HTML's preloads are the answers the app takes: nothing is asked for twice.
  expect(asked.sort()).toEqual([
    '/api/ignore preload',
    '/api/recent?limit=30&include_me=false preload',
    '/api/user/me preload',
  ]);
  expect(codeAskers.sort()).toEqual([
    'ActivityRoute.css parser',
    'ActivityRoute.js parser',
    'LiveCacheSync.js parser',
    'offlinePages.js parser',
    'pageData.js parser',
  ]);
  await page.context().close();
});

test('a first visit asks for nothing its first paint does not need before it paints', async ({
  browser,
  baseURL,
}) => {
  const page = await logInNewContext(browser, baseURL, PEOPLE.mara);
  await waitForActivityOf(page.request, MARA_FRIENDS);
  // Every request the page makes, when (the browser's wall clock, in ms) and of what kind.
  const requests: { address: string; at: number; type: string | undefined }[] = [];
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('Network.enable');
  devtools.on('Network.requestWillBeSent', ({ request, wallTime, type }) => {
    const { pathname, search } = new URL(request.url);
    requests.push({ address: pathname + search, at: wallTime * 1000, type });
  });
  await page.goto('/recent');
  await expect(feedRows(page).first()).toBeVisible();
  // What waits for the first paint (decision 0048): the footer's status, the reconnect check.
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();
  await expect
    .poll(() => requests.map((request) => request.address))
    .toEqual(expect.arrayContaining(['/api/status', '/api/spotify/stats']));
  const paintedAt = Number(
    await page.evaluate(
      `performance.timeOrigin + performance.getEntriesByName('first-contentful-paint')[0].startTime`,
    ),
  );
  // What the server's HTML names: the code and the first answers (decisions 0042, 0045).
  const html = await (await page.request.get('/recent')).text();
  const named = [...html.matchAll(/(?:href|src)="(\/[^"]*)"/g)].map(([, address = '']) =>
    address.replaceAll('&amp;', '&'),
  );
  const beforePaint = requests.filter((request) => request.at < paintedAt);
  expect(beforePaint.map((request) => request.address)).toEqual(
    expect.arrayContaining(['/recent', '/api/recent?limit=30']),
  );
  // Anything else before the paint, images aside (the covers, at low priority), would be a
  // request the paint may wait on.
  expect(
    beforePaint
      .filter((request) => request.type !== 'Document' && request.type !== 'Image')
      .map((request) => request.address)
      .filter((address) => !named.includes(address)),
  ).toEqual([]);
  await page.context().close();
});

test('a first visit paints the feed with its rows, not a spinner before them', async ({
  browser,
  baseURL,
}) => {
  const page = await logInNewContext(browser, baseURL, PEOPLE.mara, { serviceWorkers: 'block' });
  await waitForActivityOf(page.request, MARA_FRIENDS);
  // Everything the page ever shows, from its first node: was a loading state among it?
  await page.addInitScript(`
    window.earshotSpinnerSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('.loading-state')) window.earshotSpinnerSeen = true;
    }).observe(document, { childList: true, subtree: true });
  `);
  await page.goto('/recent');
  await expect(feedRows(page).first()).toBeVisible();
  expect(await page.evaluate('window.earshotSpinnerSeen')).toBe(false);
  await page.context().close();
});
