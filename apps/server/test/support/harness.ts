import { randomBytes } from 'node:crypto';
import { startSandboxServer } from '@earshot/spotify-sandbox/main';
import type { SandboxServerOptions } from '@earshot/spotify-sandbox/main';
import type { SandboxClient } from '@earshot/spotify-sandbox/plugin';
import type {
  FastifyInstance,
  FastifyServerOptions,
  InjectOptions,
  LightMyRequestResponse,
} from 'fastify';
import { expect } from 'vitest';
import type { CurrentUser } from '@earshot/contract/user';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import type { Database } from '../../src/db/client';
import type { JobDependencies } from '../../src/jobs/handlers';
import {
  ERROR_REPORTS_FLUSH_MS,
  startErrorReporting,
} from '../../src/observability/error-reporting';
import { createMetrics, createSpotifyHttp, type Metrics } from '../../src/observability/metrics';
import { importSettings } from '../../src/services/import/upload';
import { tokenSourceFor } from '../../src/services/spotify-tokens';
import { createTokenCipher, type TokenCipher } from '../../src/services/token-cipher';
import { SpotifyClient } from '../../src/spotify/client';
import type { SpotifyHttpOptions } from '../../src/spotify/http';
import { freshDatabase } from './database';

const PUBLIC_URL = 'http://127.0.0.1:8080';
export const TEST_CLIENT_ID = 'earshot-test';

export interface Harness {
  app: FastifyInstance;
  config: Config;
  database: Database;
  cipher: TokenCipher;
  spotify: SpotifyClient;
  metrics: Metrics;
  sandboxUrl: string;
  /** Calls the sandbox's control API (faults, clock, tokens, modes). */
  control(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<Response>;
  /** Asks for Spotify's authorization URL as a browser does; answers it and the login cookie. */
  startLogin(next?: string, remoteAddress?: string): Promise<StartedLogin>;
  /**
   * Consents on the sandbox's authorization page as `accountId` (after `editForm`, e.g. to withhold
   * a scope) and brings the browser back to Earshot's callback with the login's cookie.
   */
  returnFromSpotify(
    started: StartedLogin,
    accountId: string,
    options?: {
      editForm?: (form: URLSearchParams) => void;
      remoteAddress?: string;
    },
  ): Promise<LightMyRequestResponse>;
  /** Logs in through the full OAuth round trip as a sandbox account; returns the cookie header. */
  login(accountId: string, next?: string): Promise<LoginResult>;
  /** Logs in as a sandbox account and answers its cookie header and Earshot user id. */
  signIn(accountId: string): Promise<Viewer>;
  /** Sends a request with `viewer`'s session cookie, or as a visitor without one. */
  request(
    viewer: Viewer | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: InjectOptions['payload'],
  ): Promise<LightMyRequestResponse>;
  /** `a` asks `b` for friendship and `b` accepts, by their usernames of the moment. */
  befriend(a: Viewer, b: Viewer): Promise<void>;
  /** What a job runner of this app needs, for tests that start their own. */
  jobDependencies(): JobDependencies;
  /** A signed-in user's current Spotify access token (to call the sandbox as them). */
  spotifyTokenOf(userId: string): Promise<string>;
  close(): Promise<void>;
}

export interface Viewer {
  cookie: string;
  id: string;
}

export interface StartedLogin {
  authorizationUrl: URL;
  /** The cookie header binding the login to this "browser", for the callback. */
  cookie: string;
}

export interface LoginResult {
  cookie: string;
  location: string;
  /** The session cookie as set, with its attributes. */
  setCookie: { httpOnly?: boolean; sameSite?: string; path?: string; maxAge?: number };
  /** Every cookie the login's last answer set. */
  cookies: {
    name: string;
    value: string;
    httpOnly?: boolean;
    sameSite?: string;
    maxAge?: number;
  }[];
}

/**
 * Earshot wired to a fresh database and to a sandbox Spotify running on a random port, reached
 * over HTTP by base URL only, exactly as in production.
 */
export async function startHarness(
  options: {
    mode?: SandboxClient['mode'];
    env?: Record<string, string>;
    /** e.g. a shared `world` or a `clock` the test moves. */
    sandbox?: Partial<Omit<SandboxServerOptions, 'clients'>>;
    http?: Partial<SpotifyHttpOptions>;
    /** A built web app to serve (default: apps/web/dist, if it was built). */
    webDistDir?: string;
    /** The app's logger options (default: silent, or TEST_LOG's level). */
    logger?: FastifyServerOptions['logger'];
  } = {},
): Promise<Harness> {
  const sandbox = await startSandboxServer({
    ...options.sandbox,
    port: 0,
    clients: [
      {
        id: TEST_CLIENT_ID,
        // With SPOTIFY_CLIENT_SECRET Earshot is a confidential client with a token of its own.
        ...(options.env?.SPOTIFY_CLIENT_SECRET && { secret: options.env.SPOTIFY_CLIENT_SECRET }),
        redirectUris: [`${PUBLIC_URL}/api/spotify/callback`],
        mode: options.mode ?? 'extended',
      },
    ],
  });
  const database = await freshDatabase();
  const config = loadConfig({
    PUBLIC_URL,
    SPOTIFY_CLIENT_ID: TEST_CLIENT_ID,
    SPOTIFY_ACCOUNTS_URL: `${sandbox.url}/accounts`,
    SPOTIFY_API_URL: `${sandbox.url}/v1`,
    ...options.env,
  });
  if (options.webDistDir) config.webDistDir = options.webDistDir;
  const metrics = createMetrics();
  const spotify = new SpotifyClient(
    config.spotify,
    createSpotifyHttp(metrics, { backoffMs: 10, ...options.http }),
  );
  const cipher = createTokenCipher(randomBytes(32));
  // TEST_LOG=error (or another level) shows the server's logs while debugging a test.
  const logger = options.logger ?? (process.env.TEST_LOG ? { level: process.env.TEST_LOG } : false);
  const errorReporter = config.sentryDsn
    ? await startErrorReporting(config.sentryDsn, config.version)
    : null;
  const app = await buildApp({
    config,
    db: database.db,
    changes: database.changes,
    cipher,
    spotify,
    metrics,
    logger,
    errorReporter,
  });

  async function startLogin(next = '/', remoteAddress?: string): Promise<StartedLogin> {
    const authorize = await app.inject({
      url: `/api/spotify/authorize?${new URLSearchParams({ next })}`,
      ...(remoteAddress !== undefined && { remoteAddress }),
    });
    expect(authorize.statusCode).toBe(200);
    const bound = authorize.cookies.find((cookie) => cookie.name === 'earshot_login');
    expect(bound, 'no login cookie').toBeDefined();
    return {
      authorizationUrl: new URL(authorize.json<{ authorization_url: string }>().authorization_url),
      cookie: `earshot_login=${bound?.value}`,
    };
  }

  async function returnFromSpotify(
    { authorizationUrl, cookie }: StartedLogin,
    accountId: string,
    options: { editForm?: (form: URLSearchParams) => void; remoteAddress?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const form = new URLSearchParams(authorizationUrl.searchParams);
    options.editForm?.(form);
    form.set('account', accountId);
    form.set('consent', 'allow');
    const consent = await fetch(`${authorizationUrl.origin}${authorizationUrl.pathname}`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(consent.status).toBe(303);
    const redirect = new URL(consent.headers.get('location') ?? '');
    return app.inject({
      url: `${redirect.pathname}${redirect.search}`,
      headers: { cookie },
      ...(options.remoteAddress !== undefined && { remoteAddress: options.remoteAddress }),
    });
  }

  async function login(accountId: string, next = '/'): Promise<LoginResult> {
    const callback = await returnFromSpotify(await startLogin(next), accountId);
    expect(callback.statusCode).toBe(303);
    const session = callback.cookies.find((cookie) => cookie.name === 'earshot_session');
    expect(session, `no session cookie; went to ${callback.headers.location}`).toBeDefined();
    return {
      cookie: `earshot_session=${session?.value}`,
      location: String(callback.headers.location),
      setCookie: session ?? {},
      cookies: callback.cookies,
    };
  }

  const request: Harness['request'] = (viewer, method, url, payload) =>
    app.inject({
      method,
      url,
      headers: viewer ? { cookie: viewer.cookie } : {},
      ...(payload !== undefined && { payload }),
    });

  async function befriend(a: Viewer, b: Viewer): Promise<void> {
    const username = async (viewer: Viewer) =>
      (await request(viewer, 'GET', '/api/user/me')).json<CurrentUser>().username;
    await request(a, 'POST', `/api/friendship/request/${await username(b)}`);
    await request(b, 'POST', `/api/friendship/accept/${await username(a)}`);
  }

  async function signIn(accountId: string): Promise<Viewer> {
    const { cookie } = await login(accountId);
    const me = await app.inject({ url: '/api/user/me', headers: { cookie } });
    return { cookie, id: me.json<{ id: string }>().id };
  }

  return {
    app,
    config,
    database,
    cipher,
    spotify,
    metrics,
    sandboxUrl: sandbox.url,
    control: (method, path, body) =>
      fetch(`${sandbox.url}/control${path}`, {
        method,
        ...(body !== undefined && {
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        }),
      }),
    startLogin,
    returnFromSpotify,
    login,
    signIn,
    request,
    befriend,
    spotifyTokenOf: (userId) => tokenSourceFor(database.db, cipher, spotify, userId).accessToken(),
    jobDependencies: () => ({
      db: database.db,
      pool: database.pool,
      cipher,
      spotify,
      metrics,
      log: app.log,
      importSettings: importSettings(config),
      errorReporter,
    }),
    async close() {
      await app.close();
      await errorReporter?.close(ERROR_REPORTS_FLUSH_MS);
      await database.close();
      await sandbox.close();
    },
  };
}
