import { DEMO_ACCOUNTS, DEMO_FRIENDSHIPS } from '@earshot/spotify-sandbox/plugin';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client';
import { syncSoon } from './spotify-accounts';
import type { SpotifyClient } from '../spotify/client';
import { completeLogin, startLogin } from './login';
import { acceptFriendship, requestFriendship } from './social';
import type { TokenCipher } from './token-cipher';

export interface DemoWorldDependencies {
  db: Db;
  spotify: SpotifyClient;
  cipher: TokenCipher;
  /** The sandbox's control API, e.g. http://127.0.0.1:8080/sandbox/control. */
  controlUrl: string;
  controlToken: string | undefined;
  log: FastifyBaseLogger;
}

const consent = z.object({ redirect_to: z.string() });

/**
 * Makes the demo social at its first start: every sandbox account connects to Earshot through
 * the real OAuth flow (the sandbox's control API gives the consent a person would click), and
 * friendships follow the sandbox's social graph, accepted or still pending. Does nothing once
 * anyone has connected, so a demo keeps what people changed in it.
 */
export async function seedDemoWorld(deps: DemoWorldDependencies): Promise<number> {
  const { db, spotify, cipher, controlUrl, controlToken, log } = deps;
  const existing = await db.execute<{ any: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM users) AS any`,
  );
  if (existing.rows[0]?.any) return 0;

  const userIds = new Map<string, string>();
  for (const account of DEMO_ACCOUNTS) {
    const login = await startLogin(db, spotify.config, '/');
    const authorization = new URL(login.url);
    // The authorize request's own fields; the control API implies response_type=code.
    const { response_type: _code, ...query } = Object.fromEntries(authorization.searchParams);
    const response = await fetch(`${controlUrl}/authorize`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(controlToken && { authorization: `Bearer ${controlToken}` }),
      },
      body: JSON.stringify({ ...query, account: account.id }),
    });
    if (!response.ok) {
      throw new Error(`The sandbox refused consent for ${account.id}: ${await response.text()}`);
    }
    const redirect = new URL(consent.parse(await response.json()).redirect_to);
    const { user } = await completeLogin(
      db,
      spotify,
      cipher,
      {
        code: redirect.searchParams.get('code') ?? undefined,
        state: redirect.searchParams.get('state') ?? undefined,
      },
      // This process is the browser that started the login.
      login.state,
    );
    await syncSoon(db, user.id);
    userIds.set(account.id, user.id);
  }
  for (const friendship of DEMO_FRIENDSHIPS) {
    const from = userIds.get(friendship.from);
    const to = userIds.get(friendship.to);
    if (!from || !to) continue;
    await requestFriendship(db, from, to);
    if (friendship.state === 'accepted') await acceptFriendship(db, to, from);
  }
  log.info(
    { accounts: userIds.size, friendships: DEMO_FRIENDSHIPS.length },
    'demo world ready: every sandbox account is connected',
  );
  return userIds.size;
}
