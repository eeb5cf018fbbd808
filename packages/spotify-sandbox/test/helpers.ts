import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { spotifySandbox, type SandboxClient, type SandboxOptions } from '../src/plugin';

export const PUBLIC_URL = 'http://sandbox.test/sandbox';
export const REDIRECT_URI = 'http://app.test/api/spotify/callback';

/** A public PKCE client, like Earshot's. */
export const PUBLIC_CLIENT: SandboxClient = {
  id: 'earshot-demo',
  redirectUris: [REDIRECT_URI],
  mode: 'extended',
};
/** A confidential client authenticating with its secret. */
export const CONFIDENTIAL_CLIENT: SandboxClient = {
  id: 'server-app',
  secret: 'server-app-secret',
  redirectUris: [REDIRECT_URI],
  mode: 'extended',
};
/** A public client of a Spotify app in Development Mode. */
export const DEVELOPMENT_CLIENT: SandboxClient = {
  id: 'dev-app',
  redirectUris: [REDIRECT_URI],
  mode: 'development',
};

/** What an app using the Web Playback SDK asks for: the SDK's scopes and playback control. */
export const SDK_SCOPES = [
  'streaming',
  'user-read-email',
  'user-read-private',
  'user-read-playback-state',
  'user-modify-playback-state',
].join(' ');

export const PREMIUM_ACCOUNT = 'maralindqvist';
export const FREE_ACCOUNT = '11183207465';

export async function buildSandbox(
  options: Partial<SandboxOptions> = {},
): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(spotifySandbox, {
    prefix: '/sandbox',
    publicUrl: PUBLIC_URL,
    clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT, DEVELOPMENT_CLIENT],
    ...options,
  });
  await app.ready();
  return app;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

/** Query parameters of an authorize request; `undefined` drops a parameter. */
export function authorizeParams(
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  const params: Record<string, string | undefined> = {
    client_id: PUBLIC_CLIENT.id,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    state: 'state-123',
    scope: 'user-read-private user-read-email',
    code_challenge_method: 'S256',
    code_challenge: pkcePair().challenge,
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export function authorizeUrl(params: Record<string, string>): string {
  return `/sandbox/accounts/authorize?${new URLSearchParams(params).toString()}`;
}

export function postForm(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The headless authorize contract: original parameters + account + consent, one POST, 303. */
export async function authorizeHeadless(
  app: FastifyInstance,
  params: Record<string, string>,
  account = PREMIUM_ACCOUNT,
  consent: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  const response = await postForm(app, '/sandbox/accounts/authorize', {
    ...params,
    account,
    consent,
  });
  expect(response.statusCode).toBe(303);
  return new URL(String(response.headers.location));
}

export function requestToken(
  app: FastifyInstance,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return postForm(app, '/sandbox/accounts/api/token', fields, headers);
}

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

export interface TokenResponse {
  access_token: string;
  token_type: string;
  scope: string;
  expires_in: number;
  refresh_token: string;
}

/** Runs the whole PKCE flow for a public client and returns the token response. */
export async function connect(
  app: FastifyInstance,
  options: { clientId?: string; account?: string; scope?: string } = {},
): Promise<TokenResponse> {
  const { verifier, challenge } = pkcePair();
  const clientId = options.clientId ?? PUBLIC_CLIENT.id;
  const location = await authorizeHeadless(
    app,
    authorizeParams({
      client_id: clientId,
      code_challenge: challenge,
      scope: options.scope ?? 'user-read-private user-read-email',
    }),
    options.account ?? PREMIUM_ACCOUNT,
  );
  const response = await requestToken(app, {
    grant_type: 'authorization_code',
    code: location.searchParams.get('code') ?? '',
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
  });
  expect(response.statusCode).toBe(200);
  return response.json<TokenResponse>();
}

export function getMe(app: FastifyInstance, authorization?: string) {
  return app.inject({
    method: 'GET',
    url: '/sandbox/v1/me',
    headers: authorization === undefined ? {} : { authorization },
  });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height of a PNG, from its header chunk; throws on anything else. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR')
    throw new Error('not a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
