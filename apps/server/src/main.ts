import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import {
  applyMigrations,
  connectPostgres,
  startEmbeddedPostgres,
  type Database,
} from './db/client';
import { startJobRunner, type JobRunner } from './jobs/runner';
import { importSettings } from './services/import/upload';
import { redactingLoggerOptions } from './observability/logging';
import {
  ERROR_REPORTS_FLUSH_MS,
  startErrorReporting,
  type ErrorReporter,
} from './observability/error-reporting';
import { createMetrics, createSpotifyHttp, type Metrics } from './observability/metrics';
import { seedDemoWorld } from './services/demo-world';
import { createTokenCipher, loadOrCreateKeyFile, type TokenCipher } from './services/token-cipher';
import { SpotifyClient } from './spotify/client';

const USAGE = 'Usage: main.ts <serve|worker|migrate>';

/** In a terminal: a plain line of progress, and logs made readable; elsewhere JSON logs only. */
const interactive = process.stdout.isTTY === true;

function progress(message: string): void {
  if (interactive) console.log(message);
}

function loggerOptions(config: Config) {
  const redacting = redactingLoggerOptions(config.logLevel);
  return interactive
    ? {
        ...redacting,
        transport: {
          target: 'pino-pretty',
          options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
        },
      }
    : redacting;
}

interface Runtime {
  config: Config;
  database: Database;
  cipher: TokenCipher;
  metrics: Metrics;
  spotify: SpotifyClient;
  /** One per process (with SENTRY_DSN): the API and the jobs of a process share it. */
  errorReporter: ErrorReporter | null;
}

async function openRuntime(config: Config): Promise<Runtime> {
  progress(
    config.databaseUrl
      ? 'Connecting to PostgreSQL…'
      : `Starting the embedded database in ${config.dataDir}…`,
  );
  const database = config.databaseUrl
    ? connectPostgres(config.databaseUrl)
    : await startEmbeddedPostgres(config.dataDir);
  progress('Applying database migrations…');
  await applyMigrations(database);
  const key = config.encryptionKey ?? (await loadOrCreateKeyFile(config.dataDir));
  const metrics = createMetrics();
  return {
    config,
    database,
    cipher: createTokenCipher(key),
    metrics,
    spotify: new SpotifyClient(config.spotify, createSpotifyHttp(metrics)),
    errorReporter: config.sentryDsn
      ? await startErrorReporting(config.sentryDsn, config.version)
      : null,
  };
}

function startJobs(runtime: Runtime, log: FastifyBaseLogger): Promise<JobRunner> {
  const { database, cipher, spotify, metrics, errorReporter } = runtime;
  return startJobRunner({
    db: database.db,
    pool: database.pool,
    cipher,
    spotify,
    metrics,
    log,
    importSettings: importSettings(runtime.config),
    errorReporter,
  });
}

/** Stops everything once on SIGINT/SIGTERM, in order, then exits. */
function onShutdown(log: FastifyBaseLogger, steps: (() => Promise<unknown>)[]): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    for (const step of steps) await step();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

async function serve(config: Config): Promise<void> {
  const runtime = await openRuntime(config);
  // Only this process knows it: the mounted sandbox's control API is not for browsers.
  const sandboxControlToken = config.spotify.sandboxMounted
    ? randomBytes(24).toString('base64url')
    : undefined;
  const app = await buildApp({
    config,
    db: runtime.database.db,
    changes: runtime.database.changes,
    cipher: runtime.cipher,
    spotify: runtime.spotify,
    metrics: runtime.metrics,
    logger: loggerOptions(config),
    sandboxControlToken,
    errorReporter: runtime.errorReporter,
  });
  await app.listen({ port: config.port, host: config.host });
  if (sandboxControlToken) {
    progress('Connecting the Spotify sandbox’s demo accounts (first start only)…');
    await seedDemoWorld({
      db: runtime.database.db,
      spotify: runtime.spotify,
      cipher: runtime.cipher,
      controlUrl: `${config.publicUrl}/sandbox/control`,
      controlToken: sandboxControlToken,
      log: app.log,
    }).catch((error: unknown) => app.log.error({ err: error }, 'demo world not created'));
  }
  // Jobs start once the server listens: with the sandbox mounted, Spotify is this process.
  const jobs = config.jobsInProcess ? await startJobs(runtime, app.log) : undefined;
  onShutdown(app.log, [
    async () => jobs?.stop(),
    () => app.close(),
    () => runtime.database.close(),
    async () => runtime.errorReporter?.close(ERROR_REPORTS_FLUSH_MS),
  ]);
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  const spotify = config.spotify.sandboxMounted ? 'the Spotify sandbox' : config.spotify.apiUrl;
  const jobsWhere = jobs ? 'jobs in this process' : 'jobs in worker processes';
  app.log.info(
    `Earshot ${config.version} on ${config.publicUrl} (${where}, ${spotify}, ${jobsWhere})`,
  );
  if (config.spotify.sandboxMounted) {
    progress(
      'No Spotify app is configured: "Connect with Spotify" opens the offline sandbox; pick any of its demo accounts.',
    );
  }
  progress(`Earshot is ready: ${config.publicUrl}`);
}

/** Runs the background jobs only; its metrics are served on PORT (loopback or METRICS_TOKEN). */
async function worker(config: Config): Promise<void> {
  if (!config.databaseUrl) {
    throw new ConfigError(
      'The worker needs DATABASE_URL: the embedded database belongs to the `serve` process, which runs the jobs itself.',
    );
  }
  const runtime = await openRuntime(config);
  const server = Fastify({ logger: loggerOptions(config) });
  server.get('/metrics', async (_request, reply) =>
    reply.type(runtime.metrics.registry.contentType).send(await runtime.metrics.registry.metrics()),
  );
  const jobs = await startJobs(runtime, server.log);
  await server.listen({ port: config.port, host: '127.0.0.1' });
  onShutdown(server.log, [
    () => jobs.stop(),
    () => server.close(),
    () => runtime.database.close(),
    async () => runtime.errorReporter?.close(ERROR_REPORTS_FLUSH_MS),
  ]);
  server.log.info(`Earshot worker ${config.version} running jobs`);
}

async function migrateOnly(config: Config): Promise<void> {
  const database = config.databaseUrl
    ? connectPostgres(config.databaseUrl)
    : await startEmbeddedPostgres(config.dataDir);
  await applyMigrations(database);
  await database.close();
  console.log('Migrations applied.');
}

async function main(command = 'serve'): Promise<void> {
  const config = loadConfig();
  if (command === 'serve') return serve(config);
  if (command === 'worker') return worker(config);
  if (command === 'migrate') return migrateOnly(config);
  throw new ConfigError(USAGE);
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
