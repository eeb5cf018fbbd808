import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startJobRunner } from '../src/jobs/runner';
import { startHarness, type Harness } from './support/harness';

interface ReceivedEnvelope {
  path: string;
  /** The envelope's items: an item header, then its payload, as parsed JSON. */
  items: { header: { type?: string }; payload: Record<string, unknown> }[];
}

/** A stand-in for Sentry's ingest: keeps the envelopes posted to it. */
async function startIngest(): Promise<{
  server: Server;
  url: string;
  envelopes: ReceivedEnvelope[];
}> {
  const envelopes: ReceivedEnvelope[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      const [, ...lines] = body.toString('utf8').split('\n').filter(Boolean);
      const items: ReceivedEnvelope['items'] = [];
      for (let index = 0; index + 1 < lines.length; index += 2) {
        items.push({ header: JSON.parse(lines[index]!), payload: JSON.parse(lines[index + 1]!) });
      }
      envelopes.push({ path: request.url ?? '', items });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, envelopes };
}

describe('error reporting with SENTRY_DSN', () => {
  let ingest: Awaited<ReturnType<typeof startIngest>>;
  let harness: Harness;

  beforeAll(async () => {
    ingest = await startIngest();
    const dsn = `${ingest.url.replace('http://', 'http://publickey@')}/42`;
    harness = await startHarness({ env: { SENTRY_DSN: dsn } });
  });

  afterAll(async () => {
    await harness.close();
    ingest.server.close();
  });

  /**
   * The requests' error events posted since the `before`th envelope, with their envelope's path.
   * A background job's report (the job test's, arriving late) is left out: each test stands alone.
   */
  const requestEventsSince = (before: number) =>
    ingest.envelopes.slice(before).flatMap((envelope) =>
      envelope.items
        .filter((item) => item.header.type === 'event')
        .map((item) => ({ path: envelope.path, event: item.payload }))
        .filter(({ event }) => !String(event.transaction).startsWith('JOB ')),
    );

  it('sends a server error to Sentry with the release and the route', async () => {
    const before = ingest.envelopes.length;
    // The database breaks in a way no handler expects: a bare 500.
    vi.spyOn(harness.database.db, 'select').mockImplementation(() => {
      throw new Error('the disk is on fire');
    });
    const answer = await harness.app.inject({ url: '/api/track/4uLU6hMCjMI75M1A2tKUQC' });
    vi.restoreAllMocks();
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ detail: 'Internal server error' });

    await vi.waitFor(() => expect(requestEventsSince(before)).toHaveLength(1), { timeout: 5_000 });
    const [{ path, event }] = requestEventsSince(before) as [{ path: string; event: unknown }];
    expect(path).toMatch(/^\/api\/42\/envelope\//);
    expect(event).toMatchObject({
      release: harness.config.version,
      transaction: 'GET /api/track/:id',
      tags: { route: '/api/track/:id', method: 'GET' },
      exception: { values: [{ type: 'Error', value: 'the disk is on fire' }] },
    });
  });

  it('sends a background job that fails unexpectedly, named by its queue', async () => {
    await harness.signIn('maralindqvist');
    vi.spyOn(harness.spotify, 'recentlyPlayed').mockRejectedValue(
      new Error('the turntable caught fire'),
    );
    const before = ingest.envelopes.length;
    const runner = await startJobRunner(harness.jobDependencies(), { dispatchIntervalMs: 60_000 });
    try {
      await runner.dispatch();
      await vi.waitFor(
        () => {
          const events = ingest.envelopes
            .slice(before)
            .flatMap((envelope) => envelope.items.map((item) => item.payload));
          expect(events).toContainEqual(
            expect.objectContaining({
              release: harness.config.version,
              transaction: 'JOB sync-recent',
              tags: { route: 'sync-recent', method: 'JOB' },
              exception: {
                values: [expect.objectContaining({ value: 'the turntable caught fire' })],
              },
            }),
          );
        },
        { timeout: 20_000 },
      );
    } finally {
      await runner.stop();
      vi.restoreAllMocks();
    }
  });

  it('lets the browser report to the same place: the DSN in the status and the CSP', async () => {
    const status = await harness.app.inject({ url: '/api/status' });
    expect(status.json()).toEqual({
      version: harness.config.version,
      sentry_dsn: harness.config.sentryDsn,
    });
    expect(status.headers['content-security-policy']).toMatch(
      new RegExp(`connect-src [^;]*${ingest.url.replaceAll('.', '\\.')}`),
    );
  });

  it('reports no expected failure (a 404, a 400)', async () => {
    const before = ingest.envelopes.length;
    expect((await harness.app.inject({ url: '/api/no-such-route' })).statusCode).toBe(404);
    expect((await harness.app.inject({ url: '/api/track/not%20an%20id' })).statusCode).toBe(400);
    // Then an unexpected one: the only report that follows.
    vi.spyOn(harness.database.db, 'select').mockImplementation(() => {
      throw new Error('the disk is on fire again');
    });
    await harness.app.inject({ url: '/api/track/4uLU6hMCjMI75M1A2tKUQC' });
    vi.restoreAllMocks();

    await vi.waitFor(() => expect(requestEventsSince(before).length).toBeGreaterThan(0), {
      timeout: 5_000,
    });
    await harness.app.inject({ url: '/api/status' });
    const reported = requestEventsSince(before).map(({ event }) => event.transaction);
    expect(reported).toEqual(['GET /api/track/:id']);
  });
});

describe('error reporting without SENTRY_DSN', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });

  afterAll(() => harness.close());

  it('tells the browser of no DSN', async () => {
    const status = await harness.app.inject({ url: '/api/status' });
    expect(status.json()).toEqual({ version: harness.config.version });
    expect(harness.config.sentryDsn).toBeUndefined();
  });
});
