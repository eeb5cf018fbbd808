import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContextOptions,
  type Page,
} from '@playwright/test';

/**
 * The sandbox's demo people the specs name (display names as the authorization page lists them;
 * usernames as Earshot derives them from the display names), and the demo world's social graph
 * (`DEMO_FRIENDSHIPS` of the sandbox) as far as the specs rely on it.
 */
export const PEOPLE = {
  mara: { name: 'Mara Lindqvist', username: 'mara-lindqvist' },
  tomas: { name: 'Tomás Ferreira', username: 'tomas-ferreira' },
  aiko: { name: 'Aiko Tanaka', username: 'aiko-tanaka' },
  jonas: { name: 'Jonas Brandt', username: 'jonas-brandt' },
  olivia: { name: 'Olivia Bennett', username: 'olivia-bennett' },
  camille: { name: 'Camille Dubois', username: 'camille-dubois' },
  lukas: { name: 'Lukas Novák', username: 'lukas-novak' },
} as const;

export type Person = (typeof PEOPLE)[keyof typeof PEOPLE];

/** Mara's accepted friends in the demo world. */
export const MARA_FRIENDS: readonly Person[] = [
  PEOPLE.tomas,
  PEOPLE.jonas,
  PEOPLE.olivia,
  PEOPLE.camille,
];

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * On the sandbox's authorization page: picks the demo account and consents if asked. Like
 * Spotify, the sandbox asks for consent only while the account has not allowed the app yet (the
 * demo world connects every account at first start). Waits until Earshot shows them logged in.
 */
export async function approveOnSandbox(page: Page, name: string): Promise<void> {
  await expect(page).toHaveURL(/\/sandbox\/accounts\/authorize\?/);
  await page.getByRole('button', { name: new RegExp(escapeRegExp(name)) }).click();
  const allow = page.getByRole('button', { name: 'Allow', exact: true });
  const accountMenu = page.getByRole('button', { name: `Account menu for ${name}` });
  await expect(allow.or(accountMenu)).toBeVisible();
  if (await allow.isVisible()) await allow.click();
  await expect(accountMenu).toBeVisible();
}

/** Logs `page` in as a demo person through the sandbox and lands on `next`. */
export async function logIn(page: Page, person: { name: string }, next = '/'): Promise<void> {
  await page.goto(`/login?${new URLSearchParams({ next }).toString()}`);
  await page.getByRole('button', { name: 'Connect with Spotify' }).click();
  await approveOnSandbox(page, person.name);
}

/** A fresh browser context (own cookies) with a page logged in as `person`. */
export async function logInNewContext(
  browser: Browser,
  baseURL: string | undefined,
  person: Person,
  options: BrowserContextOptions & { next?: string } = {},
): Promise<Page> {
  const { next, ...contextOptions } = options;
  const context = await browser.newContext({ baseURL, ...contextOptions });
  const page = await context.newPage();
  await logIn(page, person, next);
  return page;
}

/**
 * Waits until the logged-in viewer (the cookies of `request`) can see activity of each of
 * `people` in the Recent feed: friendships made and the background sync past its first run.
 * The demo world is created and synced in the background after the server starts listening.
 */
export async function waitForActivityOf(
  request: APIRequestContext,
  people: readonly Person[],
): Promise<void> {
  await expect
    .poll(
      async () => {
        const missing: string[] = [];
        for (const person of people) {
          const answer = await request.get(
            `/api/recent?${new URLSearchParams({ user: person.username, limit: '1' }).toString()}`,
          );
          const body = answer.ok() ? ((await answer.json()) as { items: unknown[] }) : null;
          if (!body || body.items.length === 0) missing.push(person.username);
        }
        return missing;
      },
      {
        message: 'the demo world gives the viewer friends with synced plays',
        timeout: 60_000,
        intervals: [500, 1_000, 2_000],
      },
    )
    .toEqual([]);
}

/**
 * Makes sure the viewer (the cookies of `request`) and `other` are neither friends nor have a
 * request pending, through the API: arranges a befriending test on a server where it already
 * ran (a retry).
 */
export async function ensureNotConnected(request: APIRequestContext, other: Person) {
  const answer = await request.get(`/api/friendship/status/${other.username}`);
  expect(answer.ok(), `the friendship status with ${other.username}`).toBe(true);
  const { status } = (await answer.json()) as { status: string };
  if (status === 'friends') {
    expect((await request.delete(`/api/friendship/unfriend/${other.username}`)).ok()).toBe(true);
  } else if (status === 'pending_outgoing' || status === 'pending_incoming') {
    expect((await request.post(`/api/friendship/decline/${other.username}`)).ok()).toBe(true);
  }
}

/**
 * Waits until `person` is an Earshot user (their public profile answers): the demo world
 * connects every sandbox account in the background after the server starts listening.
 */
export async function waitForUser(request: APIRequestContext, person: Person): Promise<void> {
  await expect
    .poll(async () => (await request.get(`/api/user/${person.username}/public`)).status(), {
      message: `${person.name} has joined Earshot (the demo world)`,
      timeout: 60_000,
      intervals: [250, 500, 1_000],
    })
    .toBe(200);
}
