import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../src/world/demo-accounts';
import {
  authorizeHeadless,
  authorizeParams,
  authorizeUrl,
  buildSandbox,
  CONFIDENTIAL_CLIENT,
  connect,
  FREE_ACCOUNT,
  postForm,
  PREMIUM_ACCOUNT,
  REDIRECT_URI,
} from './helpers';

let app: FastifyInstance;
beforeEach(async () => {
  app = await buildSandbox();
});
afterEach(async () => {
  await app.close();
});

describe('GET /accounts/authorize', () => {
  it('shows a picker listing every demo account with avatar, name and plan', async () => {
    const response = await app.inject({ url: authorizeUrl(authorizeParams()) });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = response.body;
    for (const account of DEMO_ACCOUNTS) {
      expect(page).toContain(`value="${account.id}"`);
      expect(page).toContain(`src="../images/avatars/64/${account.id}"`);
      expect(page).toContain(account.displayName);
    }
    expect(page).toContain('Premium');
    expect(page).toContain('Free');
    expect(page).toContain('<form method="post" action="authorize">');
  });

  it('carries the original parameters, escaped, through the form', async () => {
    const params = authorizeParams({ state: '"><script>alert(1)</script>' });
    const page = (await app.inject({ url: authorizeUrl(params) })).body;

    expect(page).not.toContain('<script>');
    expect(page).toContain('name="state" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page).toContain(`name="code_challenge" value="${params.code_challenge}"`);
  });

  it('works under a strict CSP: no scripts, no inline styles, a stylesheet served by the sandbox', async () => {
    const response = await app.inject({ url: authorizeUrl(authorizeParams()) });

    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.body).not.toMatch(/<script|style=|<style/i);
    expect(response.body).toMatch(/<link rel="stylesheet" href="..\/assets\/sandbox.css"/);
    const css = await app.inject({ url: '/sandbox/assets/sandbox.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('.account');
  });

  it('shows an error page, never a redirect, for an unknown client', async () => {
    const response = await app.inject({
      url: authorizeUrl(authorizeParams({ client_id: 'nobody' })),
    });

    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toContain('INVALID_CLIENT: Invalid client');
  });

  it('shows an error page for a redirect URI the client did not register', async () => {
    for (const redirectUri of ['http://evil.test/callback', `${REDIRECT_URI}/`, undefined]) {
      const response = await app.inject({
        url: authorizeUrl(authorizeParams({ redirect_uri: redirectUri })),
      });

      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain('INVALID_CLIENT: Invalid redirect URI');
    }
  });

  it('shows "Illegal scope" for an unknown scope', async () => {
    const response = await app.inject({
      url: authorizeUrl(authorizeParams({ scope: 'user-read-private user-read-birthdate' })),
    });

    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Illegal scope');
  });

  it.each([
    ['an unsupported response_type', { response_type: 'token' }, 'unsupported_response_type'],
    ['no response_type', { response_type: undefined }, 'invalid_request'],
    [
      'no code_challenge from a public client',
      { code_challenge: undefined, code_challenge_method: undefined },
      'invalid_request',
    ],
    ['a plain code_challenge_method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a malformed code_challenge', { code_challenge: 'too-short' }, 'invalid_request'],
  ])('redirects %s back with the error and state', async (_case, overrides, error) => {
    const response = await app.inject({ url: authorizeUrl(authorizeParams(overrides)) });

    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('lets a confidential client skip PKCE', async () => {
    const response = await app.inject({
      url: authorizeUrl(
        authorizeParams({
          client_id: CONFIDENTIAL_CLIENT.id,
          code_challenge: undefined,
          code_challenge_method: undefined,
        }),
      ),
    });

    expect(response.statusCode).toBe(200);
  });
});

describe('POST /accounts/authorize', () => {
  it('asks for consent, listing the requested scopes, once an account is picked', async () => {
    const params = authorizeParams({ scope: 'user-read-email user-read-recently-played' });
    const response = await postForm(app, '/sandbox/accounts/authorize', {
      ...params,
      account: FREE_ACCOUNT,
    });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Aiko Tanaka');
    expect(response.body).toContain('See your email address');
    expect(response.body).toContain('See what you have played recently');
    expect(response.body).toContain('name="consent" value="allow"');
    expect(response.body).toContain('name="consent" value="deny"');
    expect(response.body).toContain(`name="account" value="${FREE_ACCOUNT}"`);
  });

  it('answers 303 to the redirect URI with a code and the state on approval', async () => {
    const location = await authorizeHeadless(app, authorizeParams());

    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(location.searchParams.get('state')).toBe('state-123');
  });

  it('redirects with access_denied and the state on Cancel', async () => {
    const location = await authorizeHeadless(app, authorizeParams(), PREMIUM_ACCOUNT, 'deny');

    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('keeps query parameters already in the redirect URI', async () => {
    const redirectUri = 'http://app.test/callback?source=sandbox';
    const withQuery = await buildSandbox({
      clients: [{ id: 'query-app', redirectUris: [redirectUri], mode: 'extended' }],
    });
    const location = await authorizeHeadless(
      withQuery,
      authorizeParams({ client_id: 'query-app', redirect_uri: redirectUri }),
    ).finally(() => withQuery.close());

    expect(location.searchParams.get('source')).toBe('sandbox');
    expect(location.searchParams.has('code')).toBe(true);
  });

  it('re-validates the parameters it receives', async () => {
    const response = await postForm(app, '/sandbox/accounts/authorize', {
      ...authorizeParams({ redirect_uri: 'http://evil.test/callback' }),
      account: PREMIUM_ACCOUNT,
      consent: 'allow',
    });

    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
  });

  it('shows the picker again for an unknown account', async () => {
    const response = await postForm(app, '/sandbox/accounts/authorize', {
      ...authorizeParams(),
      account: 'nobody',
      consent: 'allow',
    });

    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('That account does not exist');
    expect(response.body).toContain(`value="${PREMIUM_ACCOUNT}"`);
  });

  it('skips consent when the user already granted these scopes, unless show_dialog=true', async () => {
    await connect(app, { scope: 'user-read-private user-read-email' });
    const pick = (extra: Record<string, string>) =>
      postForm(app, '/sandbox/accounts/authorize', {
        ...authorizeParams({ scope: 'user-read-private', ...extra }),
        account: PREMIUM_ACCOUNT,
      });

    const again = await pick({});
    expect(again.statusCode).toBe(303);
    expect(new URL(String(again.headers.location)).searchParams.has('code')).toBe(true);

    const forced = await pick({ show_dialog: 'true' });
    expect(forced.statusCode).toBe(200);
    expect(forced.body).toContain('value="allow"');

    const broader = await pick({ scope: 'user-read-private user-top-read' });
    expect(broader.statusCode).toBe(200);
  });
});
