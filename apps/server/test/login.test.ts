import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@earshot/contract/errors';
import { SIGNED_IN_COOKIE } from '@earshot/contract/session';
import type { AuthorizationResponse } from '@earshot/contract/spotify';
import type { CurrentUser } from '@earshot/contract/user';
import { spotifyAccounts } from '../src/db/schema/spotify-accounts';
import { users } from '../src/db/schema/users';
import { startHarness, type Harness } from './support/harness';

const PREMIUM = 'maralindqvist';
const FREE = '11183207465';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ env: { ADMIN_EMAILS: 'CHIDI.okafor@example.com' } });
});
afterAll(() => harness.close());

const me = (cookie?: string) =>
  harness.app.inject({ url: '/api/user/me', headers: cookie ? { cookie } : {} });

function errorPageMessage(location: string): string | null {
  const url = new URL(location, 'http://x');
  expect(url.pathname).toBe('/error');
  expect(url.searchParams.get('type')).toBe('api');
  return url.searchParams.get('message');
}

describe('GET /api/spotify/authorize', () => {
  it("answers Spotify's authorization URL with PKCE, state and the scopes", async () => {
    const response = await harness.app.inject({ url: '/api/spotify/authorize?next=/friends' });
    expect(response.statusCode).toBe(200);
    const url = new URL(response.json<AuthorizationResponse>().authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${harness.sandboxUrl}/accounts/authorize`);
    expect(url.searchParams.get('client_id')).toBe('earshot-test');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:8080/api/spotify/callback');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['user-read-recently-played', 'user-library-modify', 'streaming']),
    );
  });

  it('gives every attempt its own state', async () => {
    const states = await Promise.all(
      [1, 2].map(async () => {
        const response = await harness.app.inject({ url: '/api/spotify/authorize' });
        return new URL(response.json<AuthorizationResponse>().authorization_url).searchParams.get(
          'state',
        );
      }),
    );
    expect(states[0]).not.toBe(states[1]);
  });

  it.each([
    '//evil.example/x',
    'https://evil.example',
    'friends',
    '/\\evil.example',
    // Each resolves, as a browser resolves it, to `//evil.example`: another host.
    '/..//evil.example',
    '/%2e%2e//evil.example',
    '/.//evil.example',
    '/a/..//evil.example',
    '/\t/evil.example',
  ])('refuses next=%s (no open redirect)', async (next) => {
    const response = await harness.app.inject({
      url: `/api/spotify/authorize?${new URLSearchParams({ next })}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().detail).toMatch(/^Invalid querystring: next/);
  });
});

describe('the OAuth round trip', () => {
  it('logs in, returns to next with spotify=connected, and sets a safe session cookie', async () => {
    const { cookie, location } = await harness.login(PREMIUM, '/friends?tab=pending');
    expect(location).toBe('/friends?tab=pending&spotify=connected');
    const response = await me(cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: expect.any(String),
      email: 'mara.lindqvist@example.com',
      username: 'mara-lindqvist',
      name: 'Mara Lindqvist',
      picture: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/images\//),
      is_admin: false,
      subscribed: true,
    });
  });

  it('returns to the path a browser would resolve, never leaving the site', async () => {
    const { location } = await harness.login(PREMIUM, '/a/../friends');
    expect(location).toBe('/friends?spotify=connected');
  });

  it('binds the login to the browser that started it with a short-lived cookie', async () => {
    const authorize = await harness.app.inject({ url: '/api/spotify/authorize' });
    const state = new URL(
      authorize.json<AuthorizationResponse>().authorization_url,
    ).searchParams.get('state');
    const bound = authorize.cookies.find((c) => c.name === 'earshot_login');
    expect(bound).toMatchObject({
      value: state,
      httpOnly: true,
      sameSite: 'Lax',
      path: '/api/spotify/callback',
      maxAge: 15 * 60,
    });
  });

  it("refuses a callback prepared in another browser (login CSRF): no session, attacker's login unused", async () => {
    // The attacker starts a login and consents as themselves, but does not follow the callback.
    const attacker = await harness.startLogin();
    const form = new URLSearchParams(attacker.authorizationUrl.searchParams);
    form.set('account', 'sofiamtz');
    form.set('consent', 'allow');
    const consent = await fetch(
      `${attacker.authorizationUrl.origin}${attacker.authorizationUrl.pathname}`,
      { method: 'POST', body: form, redirect: 'manual' },
    );
    const link = new URL(consent.headers.get('location') ?? '');
    // The victim, signed in and with a login of their own under way, follows the link.
    const victim = await harness.login(PREMIUM);
    const ownLogin = await harness.startLogin();
    for (const cookie of [victim.cookie, `${victim.cookie}; ${ownLogin.cookie}`]) {
      const callback = await harness.app.inject({
        url: `${link.pathname}${link.search}`,
        headers: { cookie },
      });
      expect(errorPageMessage(String(callback.headers.location))).toBe(
        'This login was not started in this browser. Please connect again from here.',
      );
      expect(callback.cookies.find((c) => c.name === 'earshot_session')).toBeUndefined();
    }
    const stillVictim = await me(victim.cookie);
    expect(stillVictim.json()).toMatchObject({ name: 'Mara Lindqvist' });
    // The link still works in the attacker's own browser: nothing was consumed by the refusals.
    const own = await harness.app.inject({
      url: `${link.pathname}${link.search}`,
      headers: { cookie: attacker.cookie },
    });
    expect(own.cookies.find((c) => c.name === 'earshot_session')).toBeDefined();
  });

  it('sets an HttpOnly, SameSite=Lax session cookie holding a 256-bit random id', async () => {
    const { cookie, setCookie } = await harness.login(PREMIUM);
    expect(cookie).toMatch(/^earshot_session=[A-Za-z0-9_-]{43}$/);
    expect(setCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(setCookie.maxAge).toBe(30 * 24 * 60 * 60);
  });

  it('tells scripts the browser is signed in with a readable cookie that lives as long as the session', async () => {
    const { cookies } = await harness.login(PREMIUM);
    const hint = cookies.find((c) => c.name === SIGNED_IN_COOKIE);
    expect(hint).toMatchObject({
      value: '1',
      sameSite: 'Lax',
      path: '/',
      maxAge: 30 * 24 * 60 * 60,
    });
    expect(hint?.httpOnly).toBeFalsy();
  });

  it('knows a free account is not subscribed', async () => {
    const { cookie } = await harness.login(FREE);
    expect((await me(cookie)).json()).toMatchObject({ subscribed: false, name: 'Aiko Tanaka' });
  });

  it('marks admins from ADMIN_EMAILS, case-insensitively', async () => {
    const { cookie } = await harness.login('chidiokafor');
    expect((await me(cookie)).json()).toMatchObject({ is_admin: true });
  });

  it('keeps the username on a second login and stores the tokens encrypted', async () => {
    const first = (await me((await harness.login(PREMIUM)).cookie)).json<CurrentUser>();
    const second = (await me((await harness.login(PREMIUM)).cookie)).json<CurrentUser>();
    expect(second).toEqual(first);
    const [account] = await harness.database.db
      .select()
      .from(spotifyAccounts)
      .where(eq(spotifyAccounts.userId, first.id));
    expect(account?.accessTokenEncrypted).toMatch(/^v1\./);
    expect(account?.refreshTokenEncrypted).toMatch(/^v1\./);
    expect(account?.status).toBe('active');
  });

  it('derives a unique username when the natural one is taken', async () => {
    await harness.database.db
      .insert(users)
      .values({ spotifyId: 'someone-else', username: 'Jonas-Brandt', name: 'Another Jonas' });
    const { cookie } = await harness.login('jonasbrandt');
    expect((await me(cookie)).json()).toMatchObject({ username: 'jonas-brandt-2' });
  });
});

describe('GET /api/spotify/callback failures go to the error page', () => {
  it('when the user cancels on Spotify', async () => {
    const { authorizationUrl: url, cookie } = await harness.startLogin();
    const form = new URLSearchParams(url.searchParams);
    form.set('account', PREMIUM);
    form.set('consent', 'deny');
    const consent = await fetch(`${url.origin}${url.pathname}`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    const redirect = new URL(consent.headers.get('location') ?? '');
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    const callback = await harness.app.inject({
      url: `${redirect.pathname}${redirect.search}`,
      headers: { cookie },
    });
    expect(callback.statusCode).toBe(303);
    expect(errorPageMessage(String(callback.headers.location))).toBe(
      'Spotify access was not granted.',
    );
    expect(callback.cookies.find((c) => c.name === 'earshot_session')).toBeUndefined();
  });

  it('when the state is unknown, missing or already used', async () => {
    for (const query of ['code=abc&state=forged', 'code=abc', '']) {
      const callback = await harness.app.inject({
        url: `/api/spotify/callback?${query}`,
        headers: { cookie: 'earshot_login=forged' },
      });
      expect(errorPageMessage(String(callback.headers.location))).toBe(
        'This login link has expired. Please connect again.',
      );
    }
  });

  it('when Spotify refuses the code', async () => {
    const { authorizationUrl, cookie } = await harness.startLogin();
    const state = authorizationUrl.searchParams.get('state');
    const callback = await harness.app.inject({
      url: `/api/spotify/callback?code=not-a-real-code&state=${state}`,
      headers: { cookie },
    });
    expect(errorPageMessage(String(callback.headers.location))).toMatch(
      /^Could not connect to Spotify: /,
    );
  });
});

describe('session', () => {
  it('answers 401 with a detail when logged out or with a forged cookie', async () => {
    for (const cookie of [undefined, 'earshot_session=forged']) {
      const response = await me(cookie);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Not logged in' });
    }
  });

  it('clears the cookies of a session that no longer exists, so the browser stops asking', async () => {
    const response = await me(`earshot_session=forged; ${SIGNED_IN_COOKIE}=1`);
    expect(response.statusCode).toBe(401);
    const cleared = Object.fromEntries(response.cookies.map((c) => [c.name, c.value]));
    expect(cleared).toEqual({ earshot_session: '', [SIGNED_IN_COOKIE]: '' });
    expect((await me()).cookies).toEqual([]);
  });

  it('logs out: the session is gone server-side and the cookie cleared', async () => {
    const { cookie } = await harness.login(PREMIUM);
    const logout = await harness.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie },
    });
    expect(logout.statusCode).toBe(204);
    const cleared = Object.fromEntries(logout.cookies.map((c) => [c.name, c.value]));
    expect(cleared).toEqual({ earshot_session: '', [SIGNED_IN_COOKIE]: '' });
    expect((await me(cookie)).statusCode).toBe(401);
  });
});

describe('GET /api/spotify/stats', () => {
  it('needs a login', async () => {
    const response = await harness.app.inject({ url: '/api/spotify/stats' });
    expect(response.statusCode).toBe(401);
  });

  it('is active after connecting and inactive once Spotify revoked the grant', async () => {
    const { cookie } = await harness.login(PREMIUM);
    const stats = () => harness.app.inject({ url: '/api/spotify/stats', headers: { cookie } });
    expect((await stats()).json()).toEqual({ active: true });
    const { id } = (await me(cookie)).json<CurrentUser>();
    await harness.database.db
      .update(spotifyAccounts)
      .set({ status: 'revoked' })
      .where(eq(spotifyAccounts.userId, id));
    expect((await stats()).json()).toEqual({ active: false });
  });
});
