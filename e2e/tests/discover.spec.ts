import { expect, test, type APIRequestContext } from '@playwright/test';
import { MARA_FRIENDS, PEOPLE, logIn, waitForActivityOf } from './support/session';

// Issue 14, end to end: Mara opens Discover in the demo world, sees her sections filled from
// her and her friends' synced plays and likes, and likes a song she has on repeat.

// The page's own request: five suggestions, On-Repeat over the last 30 days.
const DISCOVER_SECTION_LIMIT = 5;
const DEFAULT_ON_REPEAT_DAYS = 30;

const SECTIONS = [
  ['unheard-from-followed', 'New from Followed Artists'],
  ['like-on-repeat', 'Like Your On-Repeat'],
  ['friends-favorites', 'Popular with Friends'],
  ['rediscover-likes', 'Rediscover Likes'],
] as const;

/** The sections the server has suggestions for, once the demo's syncs have run. */
async function filledSections(request: APIRequestContext): Promise<string[]> {
  const filled: string[] = [];
  for (const [path, title] of SECTIONS) {
    const query =
      path === 'like-on-repeat'
        ? `?limit=${DISCOVER_SECTION_LIMIT}&days=${DEFAULT_ON_REPEAT_DAYS}`
        : `?limit=${DISCOVER_SECTION_LIMIT}`;
    const answer = await request.get(`/api/suggestions/${path}${query}`);
    const body = answer.ok() ? ((await answer.json()) as { items: unknown[] }) : { items: [] };
    if (body.items.length > 0) filled.push(title);
  }
  return filled;
}

test('Discover shows filled sections, and a song liked from On-Repeat leaves it', async ({
  page,
}, testInfo) => {
  // The demo's first syncs (plays, then likes and follows) run in the background after start.
  test.setTimeout(180_000);
  await logIn(page, PEOPLE.mara);
  await waitForActivityOf(page.request, [PEOPLE.mara, ...MARA_FRIENDS]);
  // The library sync (likes, follows) runs beside the plays' sync.
  await expect
    .poll(async () => (await filledSections(page.request)).length, {
      message: 'the demo world fills at least three sections for Mara',
      timeout: 60_000,
      intervals: [500, 1_000, 2_000],
    })
    .toBeGreaterThanOrEqual(3);

  await page.goto('/discover');
  await expect(page.getByRole('heading', { level: 1, name: 'Discover' })).toBeVisible();
  await expect(page.getByText('Discovering new music for you...')).toBeHidden({ timeout: 20_000 });

  const sections = page
    .getByRole('region')
    .filter({ has: page.getByRole('heading', { level: 2 }) });
  await expect.poll(() => sections.count()).toBeGreaterThanOrEqual(3);
  for (let index = 0; index < (await sections.count()); index++) {
    const rows = sections.nth(index).getByRole('listitem');
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeLessThanOrEqual(5);
  }

  for (const [width, height] of [
    [1280, 900],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`discover-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  const onRepeat = page.getByRole('region', { name: 'Like Your On-Repeat' });
  const first = onRepeat.getByRole('listitem').first();
  const title = (await first.getByRole('link').first().textContent()) ?? '';
  expect(title).not.toBe('');
  const liked = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/like' && response.request().method() === 'POST',
  );
  await first.getByRole('button', { name: `Like ${title}` }).click();
  const answer = await liked;
  expect(answer.ok(), `POST /api/like answered ${answer.status()}`).toBe(true);
  const { uid } = answer.request().postDataJSON() as { uid: string };
  try {
    expect(((await answer.json()) as { liked: boolean }).liked).toBe(true);
    await expect(onRepeat.getByRole('link', { name: title, exact: true })).toHaveCount(0);

    // The server leaves it out too: read it directly, as the page's own refetch may be cut off
    // by a reload.
    const again = await page.request.get(
      `/api/suggestions/like-on-repeat?limit=${DISCOVER_SECTION_LIMIT}&days=${DEFAULT_ON_REPEAT_DAYS}`,
    );
    expect(again.ok(), `On-Repeat answered ${again.status()}`).toBe(true);
    const items = ((await again.json()) as { items: { track: { title: string } }[] }).items;
    expect(items.map((item) => item.track.title)).not.toContain(title);

    await page.reload();
    await expect(page.getByText('Discovering new music for you...')).toBeHidden({
      timeout: 20_000,
    });
    await expect(
      page
        .getByRole('region', { name: 'Like Your On-Repeat' })
        .getByRole('link', { name: title, exact: true }),
    ).toHaveCount(0);
  } finally {
    // Give the demo world its song back, so a retry and later specs find the same sections.
    const undone = await page.request.post('/api/like', { data: { uid, liked: false } });
    expect(undone.ok(), `unlike answered ${undone.status()}`).toBe(true);
  }
});

test("On-Repeat's year lists the songs played most over 365 days", async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page, PEOPLE.mara);
  await waitForActivityOf(page.request, [PEOPLE.mara]);
  await page.goto('/discover');
  const onRepeat = page.getByRole('region', { name: 'Like Your On-Repeat' });
  await expect(onRepeat.getByRole('listitem').first()).toBeVisible({ timeout: 30_000 });

  // The year is kept per user and song and rolled forward on read (decision 0039).
  const year = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/suggestions/like-on-repeat' &&
      new URL(response.url()).searchParams.get('days') === '365',
  );
  await onRepeat.getByRole('combobox', { name: 'Time range' }).selectOption({ label: '1 Year' });
  const answer = await year;
  expect(answer.ok(), `On-Repeat over a year answered ${answer.status()}`).toBe(true);
  const items = ((await answer.json()) as { items: { track: { title: string }; reason: string }[] })
    .items;
  expect(items.length).toBeGreaterThan(0);
  const rows = onRepeat.getByRole('listitem');
  await expect(rows.first()).toContainText(items[0]!.track.title);
  await expect(rows.first()).toContainText(/in the last 365 days/);
});
