import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import {
  applyMigrations,
  connectPostgres,
  startEmbeddedPostgres,
  type Database,
} from './db/client';
import { createTokenCipher, loadOrCreateKeyFile } from './services/token-cipher';

const USAGE = 'Usage: main.ts <serve|migrate>';

async function openDatabase(config: Config): Promise<Database> {
  const database = config.databaseUrl
    ? connectPostgres(config.databaseUrl)
    : await startEmbeddedPostgres(config.dataDir);
  await applyMigrations(database);
  return database;
}

async function serve(config: Config): Promise<void> {
  const database = await openDatabase(config);
  const key = config.encryptionKey ?? (await loadOrCreateKeyFile(config.dataDir));
  const app = await buildApp({
    config,
    db: database.db,
    cipher: createTokenCipher(key),
    logger: { level: config.logLevel },
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  const spotify = config.spotify.sandboxMounted ? 'the Spotify sandbox' : config.spotify.apiUrl;
  app.log.info(`Earshot ${config.version} on ${config.publicUrl} (${where}, ${spotify})`);
}

async function migrateOnly(config: Config): Promise<void> {
  const database = await openDatabase(config);
  await database.close();
  console.log('Migrations applied.');
}

async function main(command = 'serve'): Promise<void> {
  const config = loadConfig();
  if (command === 'serve') return serve(config);
  if (command === 'migrate') return migrateOnly(config);
  throw new ConfigError(USAGE);
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
