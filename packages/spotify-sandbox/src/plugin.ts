import type { FastifyPluginAsync } from 'fastify';
import { accountsService } from './accounts/service';
import { AuthorizationStore } from './accounts/store';
import { assetsService } from './assets/service';
import { ClientRegistry } from './clients';
import { systemClock, type Clock } from './clock';
import { parseFormBodies } from './http/form';
import { imagesService } from './images/service';
import { webApiService } from './web-api/service';
import { AccountDirectory } from './world/account';
import { DEMO_ACCOUNTS } from './world/demo-accounts';

/** An app registered with the sandbox, as on Spotify's developer dashboard. */
export interface SandboxClient {
  id: string;
  /** Absent for a public client, which must use PKCE. */
  secret?: string;
  redirectUris: string[];
  /** Extended Quota Mode or Development Mode (see the Spotify README). */
  mode: 'extended' | 'development';
}

export interface SandboxOptions {
  /** Absolute URL where browsers reach the sandbox root, e.g. "http://127.0.0.1:8080/sandbox". */
  publicUrl: string;
  clients: SandboxClient[];
  /** If set, grants and tokens persist in a JSON file there, so a restart keeps users connected. */
  dataDir?: string;
  /** Lifetime of access tokens; default 3600. */
  accessTokenTtlSec?: number;
  /** Source of time for everything that expires; default: the system clock. */
  clock?: Clock;
}

const DEFAULT_ACCESS_TOKEN_TTL_SEC = 3600;

/**
 * The offline Spotify, registered by callers under a prefix (`{ prefix: '/sandbox' }`):
 * `accounts/authorize`, `accounts/api/token`, `v1/…`, `images/…` and `assets/…` below it.
 */
export const spotifySandbox: FastifyPluginAsync<SandboxOptions> = async (app, options) => {
  const publicUrl = normalizePublicUrl(options.publicUrl);
  const accessTokenTtlSec = options.accessTokenTtlSec ?? DEFAULT_ACCESS_TOKEN_TTL_SEC;
  if (!Number.isInteger(accessTokenTtlSec) || accessTokenTtlSec <= 0) {
    throw new Error('spotify-sandbox: accessTokenTtlSec must be a positive whole number');
  }
  const clients = new ClientRegistry(options.clients);
  const accounts = new AccountDirectory(DEMO_ACCOUNTS);
  const store = await AuthorizationStore.open({
    clock: options.clock ?? systemClock,
    accessTokenTtlSec,
    dataDir: options.dataDir,
  });
  app.addHook('onClose', () => store.settled());

  parseFormBodies(app);
  await app.register(assetsService, { prefix: '/assets' });
  await app.register(imagesService({ accounts }), { prefix: '/images' });
  await app.register(accountsService({ clients, accounts, store }), { prefix: '/accounts' });
  await app.register(webApiService({ clients, accounts, store, publicUrl }), { prefix: '/v1' });
};

function normalizePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`spotify-sandbox: publicUrl "${value}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`spotify-sandbox: publicUrl "${value}" must be an http(s) URL`);
  }
  if (url.search || url.hash) {
    throw new Error(`spotify-sandbox: publicUrl "${value}" must not have a query or fragment`);
  }
  return url.toString().replace(/\/+$/, '');
}
