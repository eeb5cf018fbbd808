import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@earshot/contract/activity';
import type { ErrorBody } from '@earshot/contract/errors';
import type { FriendList } from '@earshot/contract/friendship';
import { plays } from '../src/db/schema/listening';
import { redactingLoggerOptions, redactUrl } from '../src/observability/logging';
import { storeTracks } from '../src/services/catalog';
import { startHarness, type Harness, type Viewer } from './support/harness';

/*
 * Each case here was found answering 500 (or leaking) by an attack on the running build: the
 * fix is at the boundary, and these keep it there. The fuzz test sweeps every route; these name
 * the holes one by one.
 */

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;

const call = (
  viewer: Viewer | undefined,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: { payload: string | Buffer; contentType: string },
) =>
  harness.app.inject({
    method,
    url,
    headers: {
      ...(viewer && { cookie: viewer.cookie }),
      ...(body && { 'content-type': body.contentType }),
    },
    ...(body && { payload: body.payload }),
  });

function expectDetail(response: { statusCode: number; body: string }, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  expect(JSON.parse(response.body)).toEqual({ detail: expect.any(String) });
}

const cursor = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

beforeAll(async () => {
  harness = await startHarness({
    logger: { ...redactingLoggerOptions('info'), stream: logStream },
  });
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
  await harness.befriend(mara, tomas);
  const artist = { id: 'artistH0000000000000001', name: 'The Lanterns' };
  await storeTracks(harness.database.db, [
    {
      id: 'tr-1',
      name: 'Moonlight Drive',
      album: { id: 'al-1', name: 'Night Roads', artists: [artist], images: [] },
      artists: [artist],
      duration_ms: 180_000,
    },
  ]);
  await harness.database.db.insert(plays).values([
    {
      userId: tomas.id,
      trackId: 'tr-1',
      playedAt: new Date('2024-05-17T09:00:00Z'),
      source: 'api',
    },
    {
      userId: tomas.id,
      trackId: 'tr-1',
      playedAt: new Date('2024-05-17T10:00:00Z'),
      source: 'api',
    },
    { userId: aiko.id, trackId: 'tr-1', playedAt: new Date('2024-05-18T10:00:00Z'), source: 'api' },
  ]);
});
afterAll(() => harness.close());

describe('text that PostgreSQL cannot take is refused at the boundary with 400', () => {
  it.each([
    ['GET', '/api/user/%00/public'],
    ['GET', '/api/user/mara%00/public'],
    ['POST', '/api/friendship/request/%00'],
    ['POST', '/api/friendship/accept/a%00b'],
    ['POST', '/api/friendship/decline/%00'],
    ['DELETE', '/api/friendship/unfriend/%00'],
    ['GET', '/api/friendship/status/%00'],
    ['POST', '/api/ignore/track/%00'],
    ['DELETE', '/api/ignore/artist/%00'],
    ['POST', '/api/ignore/artist/%00/report'],
    ['GET', '/api/recent?q=%00'],
    ['GET', '/api/likes?user=%00'],
    ['GET', '/api/recent?before=%00'],
    ['GET', '/api/spotify/authorize?next=/%00'],
  ] as const)('NUL in %s %s', async (method, url) => {
    const response = await call(mara, method, url);
    expectDetail(response, 400);
    expect(response.json<ErrorBody>().detail).toMatch(/NUL/);
  });

  it('NUL and lone surrogates in a JSON body, values and names alike', async () => {
    for (const payload of [
      '{"uid":"a\\u0000b","liked":true}',
      '{"uid":"\\ud800","liked":true}',
      '{"uid":"x","liked":true,"\\u0000":1}',
      '{"uid":["\\u0000"],"liked":true}',
    ]) {
      expectDetail(
        await call(mara, 'POST', '/api/like', { payload, contentType: 'application/json' }),
        400,
      );
    }
    expectDetail(
      await call(mara, 'POST', '/api/user/username', {
        payload: '{"username":"a\\u0000"}',
        contentType: 'application/json',
      }),
      400,
    );
  });

  it('bytes that are not UTF-8 in the path, the query or the body', async () => {
    expectDetail(await call(mara, 'GET', '/api/user/%FF/public'), 400);
    expectDetail(await call(undefined, 'GET', '/api/user/%C3%28/public'), 400);
    expectDetail(await call(mara, 'GET', '/api/recent?q=%FF'), 400);
    expectDetail(await call(mara, 'GET', '/api/recent?q=caf%E9'), 400);
    const body = Buffer.concat([Buffer.from('{"uid":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    expectDetail(
      await call(mara, 'POST', '/api/like', { payload: body, contentType: 'application/json' }),
      400,
    );
  });

  it('still takes ordinary non-ASCII text', async () => {
    const response = await call(mara, 'GET', `/api/recent?q=${encodeURIComponent('Jóga 🎵')}`);
    expect(response.statusCode).toBe(200);
  });
});

describe('a forged before cursor answers 400 on both feeds', () => {
  const forged = [
    cursor('1715940000000.not-a-uuid.tr-1'),
    cursor('1715940000000.00000000-0000-0000-0000-000000000000.tr\u00001'),
    cursor('-99999999999999.00000000-0000-0000-0000-000000000000.tr-1'),
    cursor('1e400.00000000-0000-0000-0000-000000000000.tr-1'),
    cursor('1715940000000.00000000-0000-0000-0000-000000000000.'),
    'garbage',
  ];
  it.each(['/api/recent', '/api/likes'])('%s', async (path) => {
    for (const before of forged) {
      const response = await call(mara, 'GET', `${path}?${new URLSearchParams({ before })}`);
      expectDetail(response, 400);
      expect(response.json<ErrorBody>().detail).toMatch(/before cursor/);
    }
  });

  it('takes the cursor it wrote', async () => {
    const first = await call(mara, 'GET', '/api/recent?limit=1');
    const before = first.json<ActivityPage>().next_before;
    expect(before).not.toBeNull();
    const next = await call(mara, 'GET', `/api/recent?limit=1&before=${before}`);
    expect(next.statusCode).toBe(200);
  });
});

describe("Fastify's own answers keep the error shape", () => {
  it('for path parameters past the router limit and past the contract', async () => {
    expectDetail(await call(mara, 'GET', `/api/user/${'a'.repeat(120)}/public`), 400);
    expectDetail(await call(mara, 'GET', `/api/user/${'a'.repeat(3000)}/public`), 414);
  });

  it('for requests Node refuses before Fastify (431)', async () => {
    const address = await harness.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/api/recent?q=${'a'.repeat(40_000)}`);
    expect(response.status).toBe(431);
    expect(await response.json()).toEqual({ detail: expect.any(String) });
  });
});

describe('authentication comes before validation', () => {
  it.each([
    ['malformed JSON', '{"uid":', 'application/json', 401],
    ['a wrong content type', 'uid=x', 'text/plain', 401],
    ['an unknown content type', 'x', 'application/x-whatever', 401],
    ['NUL in the body', '{"uid":"\\u0000","liked":true}', 'application/json', 401],
  ] as const)('anonymous with %s answers 401', async (_name, payload, contentType, status) => {
    const response = await call(undefined, 'POST', '/api/like', { payload, contentType });
    expectDetail(response, status);
  });

  it('anonymous with a body over the limit answers 401, not 413', async () => {
    const payload = `{"uid":"${'a'.repeat(2 * 1024 * 1024)}","liked":true}`;
    const anonymous = await call(undefined, 'POST', '/api/like', {
      payload,
      contentType: 'application/json',
    });
    expectDetail(anonymous, 401);
    const signedIn = await call(mara, 'POST', '/api/like', {
      payload,
      contentType: 'application/json',
    });
    expectDetail(signedIn, 413);
  });

  it('anonymous with bad query or path answers 401', async () => {
    expectDetail(await call(undefined, 'GET', `/api/recent?limit=abc&q=${'a'.repeat(500)}`), 401);
    expectDetail(await call(undefined, 'GET', '/api/friendship/status/%00'), 401);
    expectDetail(await call(undefined, 'POST', `/api/ignore/track/${'x'.repeat(200)}`), 401);
  });
});

describe('personal answers', () => {
  it.each(['/api/user/me', '/api/friendship/list', '/api/recent', '/api/ignore'])(
    '%s says Cache-Control: no-store',
    async (url) => {
      const response = await call(mara, 'GET', url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
    },
  );

  it('show the last play only of friends in the friend list, not of those one asked or who asked', async () => {
    await call(aiko, 'POST', '/api/friendship/request/mara-lindqvist');
    await call(mara, 'POST', '/api/friendship/request/aiko-tanaka');
    await call(tomas, 'POST', '/api/friendship/request/aiko-tanaka');
    const lastPlays = async (viewer: Viewer) =>
      Object.fromEntries(
        (await call(viewer, 'GET', '/api/friendship/list'))
          .json<FriendList>()
          .friends.map((friend) => [friend.username, [friend.status, friend.last_play]]),
      );
    // Mara and Aiko became friends by crossing requests; Tomas only asked Aiko.
    expect(await lastPlays(tomas)).toEqual({
      'mara-lindqvist': ['accepted', null],
      'aiko-tanaka': ['requested', null],
    });
    expect(await lastPlays(aiko)).toMatchObject({
      'tomas-ferreira': ['pending', null],
      'mara-lindqvist': ['accepted', null],
    });
    expect(await lastPlays(mara)).toMatchObject({
      'tomas-ferreira': ['accepted', '2024-05-17T10:00:00.000Z'],
      'aiko-tanaka': ['accepted', '2024-05-18T10:00:00.000Z'],
    });
  });
});

describe('the log', () => {
  it("never holds a login's code, state or PKCE verifier", async () => {
    const started = logLines.length;
    const { authorizationUrl } = await harness.startLogin();
    await harness.login('chidiokafor');
    const state = authorizationUrl.searchParams.get('state')!;
    const written = logLines.slice(started).join('\n');
    expect(written).toContain('/api/spotify/callback?code=[redacted]&state=[redacted]');
    expect(written).not.toContain(state);
    const [attempt] = await harness.database.pool
      .query<{ code_verifier: string }>('SELECT code_verifier FROM oauth_logins')
      .then((result) => result.rows);
    expect(attempt).toBeDefined();
    expect(written).not.toContain(attempt!.code_verifier);
  });

  it("keeps a failed query's text but not its parameters", () => {
    const error = new Error('Failed query: select 1 where x = $1\nparams: secret-verifier');
    const logged = redactingLoggerOptions('info').serializers.err(error);
    expect(logged.message).toBe('Failed query: select 1 where x = $1\nparams: [redacted]');
    expect(logged.stack).not.toContain('secret-verifier');
  });

  it('redacts secret query values and keeps the rest', () => {
    expect(redactUrl('/api/spotify/callback?code=abc&state=def&x=1')).toBe(
      '/api/spotify/callback?code=[redacted]&state=[redacted]&x=1',
    );
    expect(redactUrl('/api/recent?q=code')).toBe('/api/recent?q=code');
  });
});
