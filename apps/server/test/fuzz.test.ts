import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../src/services/sessions';
import { startHarness, type Harness, type Viewer } from './support/harness';

/*
 * Hostile input against every route the OpenAPI description lists, signed in and anonymous:
 * NUL, bytes that are not UTF-8, lone surrogates, over-long and huge values, wrong types,
 * malformed JSON, wrong content types, forged cursors and prototype-pollution keys; first a fixed
 * catalogue on every route, then random input from fast-check (a failure prints its seed and the
 * smallest input that fails). Whatever is sent: never a 5xx, every error is exactly
 * `{"detail": string}`, and no answer shows a stack trace.
 */

interface Operation {
  key: string;
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  /** Documents a 401: only for signed-in users. */
  needsLogin: boolean;
}

/** A value for a path or query parameter: `raw` goes into the URL as it is (already encoded). */
type UrlValue = { text: string } | { raw: string };

const text = (value: string): UrlValue => ({ text: value });
const raw = (value: string): UrlValue => ({ raw: value });
const forgedCursor = (value: string) => text(Buffer.from(value).toString('base64url'));

const HOSTILE_URL_VALUES: UrlValue[] = [
  text('\u0000'),
  text('a\u0000b'),
  raw('%FF'),
  raw('%C3%28'),
  raw('%ED%A0%80'), // an encoded surrogate: not UTF-8
  raw('%E0%80%AF'), // an over-long encoding of "/"
  raw('%'),
  raw('%zz'),
  text(''),
  text(' '),
  text('x'.repeat(65)),
  text('x'.repeat(201)),
  text('x'.repeat(5000)),
  text('🎵'.repeat(300)),
  text('\uFFFD'),
  text('../../../etc/passwd'),
  text("' OR '1'='1' --"),
  text('<script>alert(1)</script>'),
  text('__proto__'),
  text('constructor'),
  text('-1'),
  text('1e309'),
  text('NaN'),
  text('true'),
  text('[]'),
  text('\r\nSet-Cookie: x=1'),
  forgedCursor('1715940000000.not-a-uuid.tr'),
  forgedCursor('-1.00000000-0000-0000-0000-000000000000.tr'),
  forgedCursor('99999999999999999.00000000-0000-0000-0000-000000000000.tr'),
  forgedCursor('1715940000000.00000000-0000-0000-0000-000000000000.\u0000'),
];

const JSON_TYPE = 'application/json';

interface BodyCase {
  contentType: string | undefined;
  payload: string | Buffer;
}

function hostileBodies(fields: string[]): BodyCase[] {
  const json = (payload: string | Buffer): BodyCase => ({ contentType: JSON_TYPE, payload });
  const withEach = (value: unknown) =>
    json(JSON.stringify(Object.fromEntries(fields.map((field) => [field, value]))));
  return [
    json('{'),
    json('{"a":'),
    json(''),
    json('[]'),
    json('"text"'),
    json('123'),
    json('null'),
    json('{"__proto__":{"is_admin":true}}'),
    json('{"constructor":{"prototype":{"is_admin":true}}}'),
    json(`${'['.repeat(20_000)}${']'.repeat(20_000)}`),
    json(Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])),
    json('{"a":"\\ud800"}'),
    json(`{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`),
    withEach('\u0000'),
    withEach('\ud800'),
    withEach('x'.repeat(10_000)),
    withEach(12),
    withEach(null),
    withEach([]),
    withEach({ __proto__: null, nested: '\u0000' }),
    { contentType: 'text/plain', payload: 'hello' },
    { contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=%00' },
    { contentType: 'multipart/form-data; boundary=x', payload: '--x\r\ngarbage' },
    { contentType: 'application/xml', payload: '<a/>' },
    { contentType: 'application/json; charset=utf-16', payload: '{}' },
    { contentType: undefined, payload: '{"a":1}' },
  ];
}

let harness: Harness;
let viewer: Viewer;
let operations: Operation[];
let requestCount = 0;

/** Routes whose call ends the session it was made with: each gets a fresh one. */
const ENDS_SESSION = new Set(['POST /api/logout', 'DELETE /api/user/me']);
/**
 * Event streams never end, so an injected request would never answer; their boundary (401 first,
 * a hostile Last-Event-ID) is tested in live.test.ts.
 */
const STREAMS = new Set(['GET /api/live']);

beforeAll(async () => {
  harness = await startHarness();
  viewer = await harness.signIn('maralindqvist');
  await harness.app.inject({
    method: 'POST',
    url: '/api/friendship/request/tomas-ferreira',
    headers: { cookie: viewer.cookie },
  });
  const document = await harness.app.inject({ url: '/api/docs/json' });
  const paths = document.json<{
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string }[];
          requestBody?: { content?: Record<string, { schema?: { properties?: object } }> };
          responses?: Record<string, unknown>;
        }
      >
    >;
  }>().paths;
  operations = Object.entries(paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method]) => method !== 'head' && !STREAMS.has(`${method.toUpperCase()} ${path}`))
      .map(([method, operation]) => {
        const named = (where: string) =>
          (operation.parameters ?? []).filter((p) => p.in === where).map((p) => p.name);
        const bodySchema = operation.requestBody?.content?.[JSON_TYPE]?.schema;
        return {
          key: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path,
          pathParams: named('path'),
          queryParams: named('query'),
          bodyFields: Object.keys(bodySchema?.properties ?? {}),
          needsLogin: '401' in (operation.responses ?? {}),
        };
      }),
  );
});
afterAll(() => harness.close());

function encode(value: UrlValue): string {
  if ('raw' in value) return value.raw;
  // Byte by byte, as a client would send it: a lone surrogate becomes U+FFFD's bytes.
  return [...Buffer.from(value.text, 'utf8')]
    .map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`)
    .join('');
}

function pathWith(operation: Operation, values: Record<string, UrlValue> = {}): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    values[name] ? encode(values[name]) : 'mara-lindqvist',
  );
}

interface Attempt {
  operation: Operation;
  url: string;
  body?: BodyCase;
  signedIn: boolean;
  /** The URL still reaches the operation's route (its path was not broken on purpose). */
  routes?: boolean;
}

async function send({ operation, url, body, signedIn }: Attempt) {
  const cookie = !signedIn
    ? undefined
    : ENDS_SESSION.has(operation.key)
      ? `earshot_session=${await createSession(harness.database.db, viewer.id)}`
      : viewer.cookie;
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (body?.contentType) headers['content-type'] = body.contentType;
  requestCount += 1;
  return harness.app.inject({
    method: operation.method as 'GET',
    url,
    headers,
    // A new address each time: the rate limit must not hide what the route itself answers.
    remoteAddress: `10.${(requestCount >> 16) & 255}.${(requestCount >> 8) & 255}.${requestCount & 255}`,
    ...(body && { payload: body.payload }),
  });
}

/** Why an answer breaks the contract's promises, or undefined when it keeps them. */
function problemWith(response: { statusCode: number; body: string }): string | undefined {
  if (response.statusCode >= 500) return `answered ${response.statusCode}`;
  if (/\bat .+:\d+:\d+\)?/.test(response.body) || response.body.includes('node_modules')) {
    return 'shows a stack trace';
  }
  if (response.statusCode < 400) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return 'error body is not JSON';
  }
  const keys = parsed !== null && typeof parsed === 'object' ? Object.keys(parsed) : [];
  const detail = (parsed as { detail?: unknown } | null)?.detail;
  if (keys.length !== 1 || typeof detail !== 'string')
    return 'error body is not {"detail": string}';
  return undefined;
}

async function check(attempt: Attempt): Promise<string | undefined> {
  const response = await send(attempt);
  const anonymousAtTheDoor = !attempt.signedIn && attempt.routes && attempt.operation.needsLogin;
  const problem =
    anonymousAtTheDoor && response.statusCode !== 401
      ? `answered ${response.statusCode} to an anonymous call (authentication comes first)`
      : problemWith(response);
  if (!problem) return undefined;
  const who = attempt.signedIn ? 'signed in' : 'anonymous';
  const sent = attempt.body
    ? ` with ${attempt.body.contentType ?? 'no content type'} ${String(attempt.body.payload).slice(0, 60)}`
    : '';
  return `${attempt.operation.method} ${attempt.url.slice(0, 120)}${sent} (${who}): ${problem}: ${response.body.slice(0, 160)}`;
}

function catalogueFor(operation: Operation): Omit<Attempt, 'signedIn'>[] {
  const attempts: Omit<Attempt, 'signedIn'>[] = [];
  const base = pathWith(operation);
  for (const param of operation.pathParams) {
    for (const value of HOSTILE_URL_VALUES) {
      // An empty, broken or over-long segment no longer reaches this route.
      const routes = 'text' in value && value.text !== '' && encode(value).length <= 2048;
      attempts.push({ operation, url: pathWith(operation, { [param]: value }), routes });
    }
  }
  for (const param of operation.queryParams) {
    for (const value of HOSTILE_URL_VALUES) {
      attempts.push({ operation, url: `${base}?${param}=${encode(value)}`, routes: true });
    }
    attempts.push({ operation, url: `${base}?${param}=a&${param}=b`, routes: true });
  }
  for (const value of ['%00', '%FF', encode(text('x'.repeat(5000)))]) {
    attempts.push({ operation, url: `${base}?unknown=${value}`, routes: true });
  }
  attempts.push({ operation, url: `${base}?__proto__=x&constructor=y`, routes: true });
  attempts.push({ operation, url: `${base}?__proto__[is_admin]=1`, routes: true });
  attempts.push({ operation, url: `${base}%00` });
  attempts.push({ operation, url: `${base}/%FF` });
  if (operation.method !== 'GET') {
    for (const body of hostileBodies(operation.bodyFields.length ? operation.bodyFields : ['a'])) {
      attempts.push({ operation, url: base, body, routes: true });
    }
  }
  return attempts;
}

describe('hostile input on every route of the contract', () => {
  it('finds the routes to attack', () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  it('survives a fixed catalogue of hostile values, signed in and anonymous', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      for (const attempt of catalogueFor(operation)) {
        for (const signedIn of [false, true]) {
          const failure = await check({ ...attempt, signedIn });
          if (failure) failures.push(failure);
        }
      }
    }
    expect(failures).toEqual([]);
    // 2,000 or so: a route that took none of them would show here.
    expect(requestCount).toBeGreaterThan(operations.length * 20);
  }, 120_000);

  it('survives random values in paths, queries and bodies', async () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }).map((value) => text(value)),
      fc
        .uint8Array({ maxLength: 24 })
        .map((bytes) =>
          raw([...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')),
        ),
    );
    const anyBody = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    );
    const anyAttempt = fc.record({
      operation: fc.constantFrom(...operations),
      pathValue: anyText,
      query: fc.array(fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), anyText), {
        maxLength: 3,
      }),
      body: anyBody,
      bodyFields: fc.dictionary(fc.string({ unit: 'binary', maxLength: 10 }), fc.jsonValue(), {
        maxKeys: 3,
      }),
      contentType: fc.constantFrom(JSON_TYPE, 'text/plain', 'application/octet-stream', undefined),
      signedIn: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(anyAttempt, async (input) => {
        const { operation } = input;
        const values = Object.fromEntries(operation.pathParams.map((p) => [p, input.pathValue]));
        const known = operation.queryParams.length ? operation.queryParams : ['unknown'];
        const query = input.query
          .map(([name], index) => [known[index % known.length] ?? name, input.query[index]![1]])
          .map(([name, value]) => `${encode(text(name as string))}=${encode(value as UrlValue)}`)
          .join('&');
        const url = `${pathWith(operation, values)}${query ? `?${query}` : ''}`;
        const payload =
          operation.bodyFields.length && input.contentType === JSON_TYPE
            ? JSON.stringify({
                ...input.bodyFields,
                ...Object.fromEntries(operation.bodyFields.map((f) => [f, input.bodyFields[f]])),
              })
            : input.body;
        const body =
          operation.method === 'GET' ? undefined : { contentType: input.contentType, payload };
        const failure = await check({ operation, url, body, signedIn: input.signedIn });
        expect(failure).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
