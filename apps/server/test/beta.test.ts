import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminNotifications, ModerationHistory } from '@earshot/contract/admin';
import type { ErrorBody } from '@earshot/contract/errors';
import { startHarness, type Harness } from './support/harness';

let harness: Harness;

const ADMIN = 'aiko.tanaka@example.com';
const MARA = 'mara.lindqvist@example.com';

beforeAll(async () => {
  harness = await startHarness({ env: { ADMIN_EMAILS: ADMIN, BETA_INVITE_ONLY: 'true' } });
});
afterAll(() => harness.close());

/** The OAuth round trip up to Earshot's callback, which may refuse to create an account. */
async function connect(accountId: string) {
  const callback = await harness.returnFromSpotify(await harness.startLogin('/likes'), accountId);
  const session = callback.cookies.find((cookie) => cookie.name === 'earshot_session');
  return {
    location: String(callback.headers.location),
    cookie: session ? `earshot_session=${session.value}` : undefined,
  };
}

const requestBeta = (email: unknown) =>
  harness.app.inject({ method: 'POST', url: '/api/user/beta/request', payload: { email } });

async function userCount(): Promise<number> {
  const result = await harness.database.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM users`,
  );
  return result.rows[0]!.n;
}

describe('beta requests', () => {
  it.each([
    ['an empty address', ''],
    ['no address at all', 'not-an-address'],
    ['a NUL byte', 'a\u0000b@example.com'],
    ['an address too long', `${'a'.repeat(250)}@example.com`],
  ])('refuse %s with a clear 400', async (_case, email) => {
    const answer = await requestBeta(email);
    expect(answer.statusCode).toBe(400);
    expect(answer.json<ErrorBody>().detail).toMatch(/e-mail address|NUL/);
  });

  it('store an address once and answer the same whether or not it was known', async () => {
    const first = await requestBeta('  New.Listener@Example.com ');
    const again = await requestBeta('new.listener@example.com');
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const rows = await harness.database.db.execute<{ email: string }>(
      sql`SELECT email FROM beta_requests WHERE email ILIKE '%new.listener%'`,
    );
    expect(rows.rows).toEqual([{ email: 'new.listener@example.com' }]);
  });
});

describe('invite-only login', () => {
  it('sends an address nobody accepted to /spotify/beta without an account', async () => {
    const before = await userCount();
    // Tomas's address: the next test has Mara's accepted, and either may run first.
    const attempt = await connect('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
    expect(attempt.location).toBe('/spotify/beta?invite=required');
    expect(attempt.cookie).toBeUndefined();
    expect(await userCount()).toBe(before);
  });

  it('lets admins in, and a user once an admin accepted their address', async () => {
    const admin = await connect('11183207465');
    expect(admin.location).toBe('/likes?spotify=connected');
    const adminCookie = admin.cookie!;

    await requestBeta(MARA);
    const waiting = await harness.app.inject({
      url: '/api/admin/notifications',
      headers: { cookie: adminCookie },
    });
    expect(waiting.json<AdminNotifications>().beta_requests.pending).toContain(MARA);
    const accept = await harness.app.inject({
      method: 'POST',
      url: '/api/admin/notifications/beta/accept',
      headers: { cookie: adminCookie },
      payload: { email: 'Mara.Lindqvist@example.com' },
    });
    expect(accept.json()).toEqual({ email: MARA, accepted: true });
    const after = await harness.app.inject({
      url: '/api/admin/notifications',
      headers: { cookie: adminCookie },
    });
    expect(after.json<AdminNotifications>().beta_requests.pending).not.toContain(MARA);
    const history = await harness.app.inject({
      url: '/api/admin/history',
      headers: { cookie: adminCookie },
    });
    expect(history.json<ModerationHistory>().decisions).toEqual([
      expect.objectContaining({ action: 'beta_accept', target_label: MARA }),
    ]);

    const mara = await connect('maralindqvist');
    expect(mara.location).toBe('/likes?spotify=connected');
    expect(mara.cookie).toBeDefined();
  });
});
