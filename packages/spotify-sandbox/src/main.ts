import { realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { sandboxOptionsFromEnv } from './control/env';
import { DEMO_CLIENT_ID } from './demo-client';
import { spotifySandbox, type SandboxOptions } from './plugin';

export interface SandboxServerOptions extends Omit<SandboxOptions, 'publicUrl'> {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: http://<host>:<port>/sandbox as bound. */
  publicUrl?: string;
  /** Log requests (pino, JSON lines); default off. */
  logger?: boolean;
  /** Unlike a mounted sandbox, the standalone server enables its control API (no token) by default. */
  control?: SandboxOptions['control'];
}

export interface SandboxServer {
  /** The sandbox root, e.g. http://127.0.0.1:PORT/sandbox. */
  url: string;
  close(): Promise<void>;
}

const PREFIX = '/sandbox';

/**
 * Runs the sandbox alone on its own HTTP server. The port is bound before the plugin is
 * registered, so even a random port (0) is known when the sandbox builds its public URLs.
 */
export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const {
    port = 0,
    host = '127.0.0.1',
    publicUrl,
    logger = false,
    control = { enabled: true },
    ...sandbox
  } = options;
  const server = createServer();
  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  const url = `http://${urlHost(host)}:${address.port}${PREFIX}`;
  const app = Fastify({
    logger,
    serverFactory: (handler) => server.on('request', handler),
  });
  try {
    await app.register(spotifySandbox, {
      ...sandbox,
      control,
      prefix: PREFIX,
      publicUrl: publicUrl ?? url,
    });
    await app.ready();
  } catch (error) {
    await closeServer(server);
    throw error;
  }
  return {
    url,
    async close() {
      await app.close();
      await closeServer(server);
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}

/** How browsers reach a bound host: wildcard binds are reached on loopback, IPv6 in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`SANDBOX_PORT must be a port number, got "${value}"`);
  }
  return port;
}

async function runFromCommandLine(): Promise<void> {
  const env = process.env;
  const redirectUris = (env.SANDBOX_REDIRECT_URIS || 'http://127.0.0.1:8080/api/spotify/callback')
    .split(',')
    .map((uri) => uri.trim())
    .filter(Boolean);
  const knobs = sandboxOptionsFromEnv(env);
  const sandbox = await startSandboxServer({
    ...knobs,
    port: parsePort(env.SANDBOX_PORT || '8090'),
    host: env.SANDBOX_HOST || '127.0.0.1',
    publicUrl: env.SANDBOX_PUBLIC_URL || undefined,
    dataDir: env.SANDBOX_DATA_DIR || undefined,
    logger: true,
    clients: [{ id: DEMO_CLIENT_ID, redirectUris, mode: 'extended' }],
  });
  console.log(`Spotify sandbox at ${sandbox.url}`);
  console.log(`  client ${DEMO_CLIENT_ID} (PKCE), redirect URIs: ${redirectUris.join(', ')}`);
  console.log(`  Privacy → Download your data at ${sandbox.url}/privacy`);
  if (knobs.control?.enabled !== false) {
    const guard = knobs.control?.token ? 'needs SANDBOX_CONTROL_TOKEN' : 'open';
    console.log(`  control API at ${sandbox.url}/control (${guard})`);
  }
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const entryScript = process.argv[1];
if (entryScript && realpathSync(entryScript) === import.meta.filename) {
  runFromCommandLine().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
