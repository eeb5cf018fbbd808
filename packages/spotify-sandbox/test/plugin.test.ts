import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { addUtcMonths } from '../src/accounts/store';
import { spotifySandbox } from '../src/plugin';
import {
  authorizeHeadless,
  authorizeParams,
  buildSandbox,
  connect,
  getMe,
  PUBLIC_CLIENT,
  PUBLIC_URL,
} from './helpers';

describe('spotifySandbox plugin', () => {
  it('mounts next to a host app that parses forms its own way', async () => {
    const host = Fastify();
    host.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, _body, done) => done(null, { parsedBy: 'host' }),
    );
    host.post('/host-form', async (request) => request.body);
    await host.register(spotifySandbox, {
      prefix: '/sandbox',
      publicUrl: PUBLIC_URL,
      clients: [PUBLIC_CLIENT],
    });

    const location = await authorizeHeadless(host, authorizeParams());
    const hostForm = await host.inject({
      method: 'POST',
      url: '/host-form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1',
    });
    await host.close();

    expect(location.searchParams.has('code')).toBe(true);
    expect(hostForm.json()).toEqual({ parsedBy: 'host' });
  });

  it('accepts a public URL with a trailing slash', async () => {
    const app = await buildSandbox({ publicUrl: `${PUBLIC_URL}/` });
    const { access_token } = await connect(app);
    const me = (await getMe(app, `Bearer ${access_token}`)).json<{ href: string }>();
    await app.close();

    expect(me.href).toBe(`${PUBLIC_URL}/v1/users/maralindqvist`);
  });

  it.each([
    ['a relative public URL', { publicUrl: '/sandbox' }, /publicUrl/],
    [
      'a client registered twice',
      { clients: [PUBLIC_CLIENT, PUBLIC_CLIENT] },
      /client "earshot-demo" is registered twice/,
    ],
    [
      'a relative redirect URI',
      { clients: [{ ...PUBLIC_CLIENT, redirectUris: ['/callback'] }] },
      /invalid redirect URI/,
    ],
    ['a zero token lifetime', { accessTokenTtlSec: 0 }, /accessTokenTtlSec/],
  ])('refuses %s', async (_case, options, message) => {
    await expect(buildSandbox(options)).rejects.toThrow(message);
  });
});

describe('addUtcMonths', () => {
  it('adds calendar months, clamped to the end of shorter months', () => {
    expect(addUtcMonths(Date.UTC(2026, 0, 15, 9), 6)).toBe(Date.UTC(2026, 6, 15, 9));
    expect(addUtcMonths(Date.UTC(2025, 7, 31, 23, 59), 6)).toBe(Date.UTC(2026, 1, 28, 23, 59));
    expect(addUtcMonths(Date.UTC(2027, 7, 31), 6)).toBe(Date.UTC(2028, 1, 29));
  });
});
