import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATE_FILE_NAME } from '../src/accounts/store';
import { startSandboxServer, type SandboxServer } from '../src/main';
import {
  authorizeParams,
  pkcePair,
  PREMIUM_ACCOUNT,
  PUBLIC_CLIENT,
  REDIRECT_URI,
  type TokenResponse,
} from './helpers';

let dataDir: string;
const servers: SandboxServer[] = [];
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'spotify-sandbox-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<SandboxServer> {
  const server = await startSandboxServer({ clients: [PUBLIC_CLIENT], dataDir });
  servers.push(server);
  return server;
}

async function stop(server: SandboxServer): Promise<void> {
  servers.splice(servers.indexOf(server), 1);
  await server.close();
}

function postForm(url: string, fields: Record<string, string>) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
}

/** The whole flow over real HTTP: picker page, headless approval, code exchange. */
async function connectOverHttp(sandbox: SandboxServer): Promise<TokenResponse> {
  const { verifier, challenge } = pkcePair();
  const params = authorizeParams({ code_challenge: challenge });
  const picker = await fetch(`${sandbox.url}/accounts/authorize?${new URLSearchParams(params)}`);
  expect(picker.status).toBe(200);
  const approval = await postForm(`${sandbox.url}/accounts/authorize`, {
    ...params,
    account: PREMIUM_ACCOUNT,
    consent: 'allow',
  });
  expect(approval.status).toBe(303);
  const code = new URL(approval.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const tokens = await postForm(`${sandbox.url}/accounts/api/token`, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: PUBLIC_CLIENT.id,
    code_verifier: verifier,
  });
  expect(tokens.status).toBe(200);
  return (await tokens.json()) as TokenResponse;
}

function refresh(sandbox: SandboxServer, refreshToken: string) {
  return postForm(`${sandbox.url}/accounts/api/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: PUBLIC_CLIENT.id,
  });
}

describe('startSandboxServer with a dataDir', () => {
  it('serves on a random port under /sandbox', async () => {
    const sandbox = await start();

    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox$/);
    const me = await fetch(`${sandbox.url}/v1/me`);
    expect(me.status).toBe(401);
  });

  it('keeps users connected across a restart', async () => {
    const before = await start();
    const tokens = await connectOverHttp(before);
    await stop(before);

    const after = await start();
    const me = await fetch(`${after.url}/v1/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: string }).id).toBe(PREMIUM_ACCOUNT);

    const refreshed = await refresh(after, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    const rotated = (await refreshed.json()) as TokenResponse;
    await stop(after);

    const again = await start();
    expect((await refresh(again, tokens.refresh_token)).status).toBe(400);
    expect((await refresh(again, rotated.refresh_token)).status).toBe(200);
  });

  it('writes the state atomically and never stores a token in the clear', async () => {
    const sandbox = await start();
    const tokens = await connectOverHttp(sandbox);

    expect(await readdir(dataDir)).toEqual([STATE_FILE_NAME]);
    const file = await readFile(path.join(dataDir, STATE_FILE_NAME), 'utf8');
    expect(JSON.parse(file)).toMatchObject({ version: 1 });
    expect(file).not.toContain(tokens.access_token);
    expect(file).not.toContain(tokens.refresh_token);
  });
});
