import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach } from 'vitest';
import { SCOPES } from '../../src/accounts/scopes';
import { ManualClock } from '../../src/clock';
import type { World } from '../../src/world/model';
import {
  buildSandbox,
  connect,
  DEVELOPMENT_CLIENT,
  PREMIUM_ACCOUNT,
  PUBLIC_CLIENT,
  PUBLIC_URL,
} from '../helpers';

export { DEVELOPMENT_CLIENT, PREMIUM_ACCOUNT, PUBLIC_CLIENT, PUBLIC_URL };

/** Every scope the accounts service knows. */
export const ALL_SCOPES = [...SCOPES.keys()].join(' ');

/** Every scope but `scopes`. */
export function allScopesBut(...scopes: string[]): string {
  return [...SCOPES.keys()].filter((name) => !scopes.includes(name)).join(' ');
}

/** The instant the suites' clocks start at: an evening, a few months into the world's 2026. */
export const TEST_START = Date.UTC(2026, 3, 14, 19, 30);

export type Mode = 'extended' | 'development';

export const CLIENT_OF_MODE: Record<Mode, string> = {
  extended: PUBLIC_CLIENT.id,
  development: DEVELOPMENT_CLIENT.id,
};

export const V1 = '/sandbox/v1';
export const API_BASE = `${PUBLIC_URL}/v1`;

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  raw: LightMyRequestResponse;
}

/** A user connected to an app, with helpers to call the Web API as them. */
export class ApiUser {
  constructor(
    readonly app: FastifyInstance,
    readonly token: string,
    readonly mode: Mode,
  ) {}

  async request<T = unknown>(
    method: 'GET' | 'PUT' | 'DELETE' | 'POST',
    url: string,
    payload?: object,
  ): Promise<ApiResponse<T>> {
    const raw = await this.app.inject({
      method,
      url: `${V1}${url}`,
      headers: { authorization: `Bearer ${this.token}` },
      ...(payload !== undefined && { payload }),
    });
    const body = raw.body === '' ? undefined : (raw.json() as unknown);
    return { status: raw.statusCode, body: body as T, raw };
  }

  get<T = unknown>(url: string) {
    return this.request<T>('GET', url);
  }

  /** A GET expected to succeed: its JSON, or a thrown error with the status and body. */
  async ok<T = Json>(url: string): Promise<T> {
    const response = await this.get<T>(url);
    if (response.status !== 200) {
      throw new Error(`GET ${url} answered ${response.status}: ${response.raw.body}`);
    }
    return response.body;
  }
}

/** A loosely typed JSON object, for reading responses in tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface TestSandbox {
  app: FastifyInstance;
  clock: ManualClock;
  /** Connects an account to the app of a mode (all scopes unless told) through the real flow. */
  user(options?: { mode?: Mode; account?: string; scope?: string }): Promise<ApiUser>;
}

const opened: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

/**
 * A sandbox on a frozen clock at `TEST_START`, closed after the test; on its own world unless
 * given one (e.g. a fresh `createWorld()` the test records plays into).
 */
export async function testSandbox(start = TEST_START, world?: World): Promise<TestSandbox> {
  const clock = new ManualClock(start);
  const app = await buildSandbox({ clock, ...(world && { world }) });
  opened.push(app);
  return {
    app,
    clock,
    async user({ mode = 'extended', account = PREMIUM_ACCOUNT, scope = ALL_SCOPES } = {}) {
      const tokens = await connect(app, { clientId: CLIENT_OF_MODE[mode], account, scope });
      return new ApiUser(app, tokens.access_token, mode);
    },
  };
}

/** The Spotify error body. */
export function apiError(status: number, message: string) {
  return { error: { status, message } };
}
