import type { FastifyPluginAsync } from 'fastify';
import { accountsService } from './accounts/service';
import { AuthorizationStore } from './accounts/store';
import { assetsService } from './assets/service';
import { ClientRegistry } from './clients';
import { SandboxClock } from './clock';
import { controlApi } from './control/api';
import { exportsService } from './exports/service';
import { parseFaultConfig, type FaultConfigInput } from './faults/config';
import { injectFaults } from './faults/hook';
import { FaultInjector } from './faults/injector';
import { parseFormBodies } from './http/form';
import { imagesService, imageUrls } from './images/service';
import { settlePlayersOnRequest } from './player/caller';
import { PlayerHub } from './player/player';
import { playerService } from './player/routes';
import { sdkService } from './sdk/routes';
import { webApiService } from './web-api/service';
import { AccountDirectory } from './world/account';
import type { World, WorldSizes } from './world/model';
import { createWorld } from './world/world';

// The sandbox's public entry: besides the plugin, what an embedding server needs to seed its demo.
export { DEMO_CLIENT_ID } from './demo-client';
export { DEMO_ACCOUNTS, DEMO_FRIENDSHIPS } from './world/demo-accounts';

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
  /**
   * Source of time for everything that expires and for the world; default: a clock running with
   * wall time. The control API freezes, advances and sets it.
   */
  clock?: SandboxClock;
  /** Faults in force from the start (see `faults/config.ts`); default none. */
  faults?: FaultConfigInput;
  /**
   * The control API under `control/` (faults, clock, tokens, modes, headless consent), which is
   * not Spotify's. Default: disabled (every control path answers 404). The standalone server
   * enables it; a host app that mounts the sandbox decides, and should set a token whenever the
   * sandbox is reachable by others.
   */
  control?: { enabled: boolean; token?: string };
  /** Seed of the generated world (catalogue, people, listening); default DEFAULT_WORLD_SEED. */
  seed?: number;
  /** Sizes of the generated world; default DEFAULT_WORLD_SIZES. */
  worldSizes?: Partial<WorldSizes>;
  /** A world built already (`createWorld`), e.g. shared by tests; excludes `seed`/`worldSizes`. */
  world?: World;
}

const DEFAULT_ACCESS_TOKEN_TTL_SEC = 3600;

/**
 * The offline Spotify, registered by callers under a prefix (`{ prefix: '/sandbox' }`):
 * `accounts/authorize`, `accounts/api/token`, `v1/…`, `sdk/…`, `images/…` and `assets/…` below it.
 */
export const spotifySandbox: FastifyPluginAsync<SandboxOptions> = async (app, options) => {
  const publicUrl = normalizePublicUrl(options.publicUrl);
  const accessTokenTtlSec = options.accessTokenTtlSec ?? DEFAULT_ACCESS_TOKEN_TTL_SEC;
  if (!Number.isInteger(accessTokenTtlSec) || accessTokenTtlSec <= 0) {
    throw new Error('spotify-sandbox: accessTokenTtlSec must be a positive whole number');
  }
  if (options.control?.token === '') {
    throw new Error('spotify-sandbox: control.token must not be empty');
  }
  const clock = options.clock ?? new SandboxClock();
  const faults = new FaultInjector(clock);
  faults.configure(parseFaultConfig(options.faults ?? {}));
  const clients = new ClientRegistry(options.clients);
  if (options.world && (options.seed !== undefined || options.worldSizes)) {
    throw new Error('spotify-sandbox: pass either a world or its seed and sizes, not both');
  }
  const world = options.world ?? createWorld({ seed: options.seed, sizes: options.worldSizes });
  const accounts = new AccountDirectory(world.accounts);
  const store = await AuthorizationStore.open({
    clock,
    accessTokenTtlSec,
    dataDir: options.dataDir,
  });
  app.addHook('onClose', () => store.settled());

  const players = {
    hub: new PlayerHub({ world, clock }),
    clients,
    store,
    publicUrl,
    world,
    clock,
    images: imageUrls(world, publicUrl),
  };

  parseFormBodies(app);
  injectFaults(app, { faults, store });
  settlePlayersOnRequest(app, players);
  await app.register(assetsService, { prefix: '/assets' });
  await app.register(imagesService({ accounts, world }), { prefix: '/images' });
  await app.register(accountsService({ clients, accounts, store }), { prefix: '/accounts' });
  await app.register(
    webApiService({
      clients,
      accounts,
      store,
      publicUrl,
      world,
      clock,
      images: imageUrls(world, publicUrl),
    }),
    { prefix: '/v1' },
  );
  await app.register(playerService(players), { prefix: '/v1/me/player' });
  await app.register(sdkService(players), { prefix: '/sdk' });
  await app.register(exportsService({ world, clock, publicUrl }));
  if (options.control?.enabled) {
    const deps = { token: options.control.token, clock, faults, store, clients, accounts };
    await app.register(controlApi(deps), { prefix: '/control' });
  }
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
