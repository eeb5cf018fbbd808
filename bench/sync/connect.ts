/**
 * Connects sandbox accounts to Earshot through Earshot's own login service, as the demo world
 * does: Earshot's authorization URL, the consent a person would give (the sandbox's control API),
 * then the code exchange, profile and encrypted tokens stored by `completeLogin`. Done in the
 * benchmark's process rather than through `/api/spotify/callback`, which allows 30 logins a
 * minute per address.
 */
import { DEMO_CLIENT_ID } from '@earshot/spotify-sandbox/demo-client';
import { z } from 'zod';
import type { SpotifyConfig } from '../../apps/server/src/config';
import { connectPostgres } from '../../apps/server/src/db/client';
import { syncSoon } from '../../apps/server/src/services/spotify-accounts';
import { createMetrics, createSpotifyHttp } from '../../apps/server/src/observability/metrics';
import { completeLogin, startLogin } from '../../apps/server/src/services/login';
import { createTokenCipher } from '../../apps/server/src/services/token-cipher';
import { SpotifyClient } from '../../apps/server/src/spotify/client';

const consent = z.object({ redirect_to: z.string() });

export const REDIRECT_URI = 'http://127.0.0.1:8080/api/spotify/callback';

export function spotifyConfig(sandboxUrl: string): SpotifyConfig {
  return {
    clientId: DEMO_CLIENT_ID,
    clientSecret: undefined,
    accountsUrl: `${sandboxUrl}/accounts`,
    apiUrl: `${sandboxUrl}/v1`,
    sdkUrl: `${sandboxUrl}/sdk/spotify-player.js`,
    redirectUri: REDIRECT_URI,
    sandboxMounted: false,
  };
}

/** Connects each account; returns Earshot's user id per sandbox account id. */
export async function connectAccounts(options: {
  databaseUrl: string;
  encryptionKey: string;
  sandboxUrl: string;
  accounts: readonly string[];
  parallel?: number;
}): Promise<Map<string, string>> {
  const database = connectPostgres(options.databaseUrl, options.parallel ?? 8);
  const config = spotifyConfig(options.sandboxUrl);
  const spotify = new SpotifyClient(config, createSpotifyHttp(createMetrics()));
  const cipher = createTokenCipher(Buffer.from(options.encryptionKey, 'hex'));
  const users = new Map<string, string>();

  async function connect(account: string) {
    const login = await startLogin(database.db, config, '/');
    const query = new URL(login.url).searchParams;
    const consentFields = [
      'client_id',
      'redirect_uri',
      'scope',
      'state',
      'code_challenge',
      'code_challenge_method',
    ];
    const response = await fetch(`${options.sandboxUrl}/control/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...Object.fromEntries(consentFields.map((field) => [field, query.get(field) ?? undefined])),
        account,
      }),
    });
    if (!response.ok) throw new Error(`consent refused for ${account}: ${await response.text()}`);
    const redirect = new URL(consent.parse(await response.json()).redirect_to);
    const { user } = await completeLogin(
      database.db,
      spotify,
      cipher,
      {
        code: redirect.searchParams.get('code') ?? undefined,
        state: redirect.searchParams.get('state') ?? undefined,
      },
      // This script is the browser that started the login.
      login.state,
    );
    await syncSoon(database.db, user.id);
    users.set(account, user.id);
  }

  try {
    const queue = [...options.accounts];
    await Promise.all(
      Array.from({ length: options.parallel ?? 8 }, async () => {
        for (let account = queue.shift(); account !== undefined; account = queue.shift()) {
          await connect(account);
        }
      }),
    );
  } finally {
    await database.close();
  }
  return users;
}
