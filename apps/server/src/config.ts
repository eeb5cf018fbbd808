import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_CLIENT_ID } from '@earshot/spotify-sandbox/plugin';
import { z } from 'zod';

const SPOTIFY_ACCOUNTS_URL = 'https://accounts.spotify.com';
const SPOTIFY_API_URL = 'https://api.spotify.com/v1';
const SPOTIFY_SDK_URL = 'https://sdk.scdn.co/spotify-player.js';

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(z.url().optional()),
  SPOTIFY_CLIENT_ID: optionalString,
  SPOTIFY_CLIENT_SECRET: optionalString,
  SPOTIFY_API_URL: optionalString.pipe(z.url().optional()),
  SPOTIFY_ACCOUNTS_URL: optionalString.pipe(z.url().optional()),
  SPOTIFY_SDK_URL: optionalString.pipe(z.url().optional()),
  ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, 'must be 32 bytes as hex or base64')
      .optional(),
  ),
  ADMIN_EMAILS: z.string().default(''),
  BETA_INVITE_ONLY: booleanFlag,
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SECURE_COOKIES: booleanFlag,
  JOBS_IN_PROCESS: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((value) => value === 'true' || value === '1'),
  METRICS_TOKEN: optionalString,
  IMPORT_DIR: optionalString,
  IMPORT_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 ** 3),
  IMPORT_MAX_TOTAL_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(8 * 1024 ** 3),
  IMPORT_COOLDOWN_SEC: z.coerce.number().int().min(0).default(3600),
  EXPORT_DIR: optionalString,
  ACTIVITY_CACHE_MB: z.coerce.number().int().min(0).default(64),
  DEMO_MODE: booleanFlag,
  LIVE_HEARTBEAT_SEC: z.coerce.number().min(0.05).default(20),
  LIVE_MAX_BUFFER_KB: z.coerce.number().int().min(1).default(512),
  NOW_PLAYING_TICK_SEC: z.coerce.number().min(0.05).default(5),
  NOW_PLAYING_BUDGET_PER_30S: z.coerce.number().int().min(0).default(150),
  VISITOR_FILL_BUDGET_PER_30S: z.coerce.number().int().min(0).default(30),
  SENTRY_DSN: optionalString.pipe(z.url().optional()),
});

export interface SpotifyConfig {
  clientId: string;
  clientSecret: string | undefined;
  accountsUrl: string;
  apiUrl: string;
  /** The Web Playback SDK's script, loaded by the browser. */
  sdkUrl: string;
  redirectUri: string;
  /** True when no Spotify app is configured and the offline sandbox is mounted at /sandbox. */
  sandboxMounted: boolean;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  encryptionKey: Buffer | undefined;
  spotify: SpotifyConfig;
  adminEmails: ReadonlySet<string>;
  /** Only admins and accepted beta addresses may create accounts. */
  betaInviteOnly: boolean;
  rateLimitPerMinute: number;
  logLevel: string;
  secureCookies: boolean;
  /** `serve` also runs the background jobs (the default; production runs `worker` processes). */
  jobsInProcess: boolean;
  metricsToken: string | undefined;
  /** Memory for feed pages as sent (0: no cache). */
  activityCacheBytes: number;
  live: {
    heartbeatMs: number;
    /** A stream whose client leaves more than this unread is dropped. */
    maxBufferedBytes: number;
    /** How often watched users are looked at for now playing (each at most every 30 s). */
    nowPlayingTickMs: number;
    /** Calls to Spotify's currently-playing this process may make per 30 s. */
    nowPlayingBudgetPer30s: number;
  };
  /** Calls to Spotify with Earshot's own token this process may make per 30 s for visitors. */
  visitorFillBudgetPer30s: number;
  import: {
    /** Where uploads wait for their import: shared storage when workers run on other machines. */
    dir: string;
    maxUploadBytes: number;
    /** Disk all uploads together may use while they arrive and wait for their import. */
    maxTotalBytes: number;
    cooldownSec: number;
  };
  /** Where "Download my data" ZIPs are written: shared storage when workers run elsewhere. */
  exportDir: string;
  version: string;
  webDistDir: string;
  /** Where server and browser errors are reported (Sentry); unset: nowhere. */
  sentryDsn: string | undefined;
}

export class ConfigError extends Error {}

function readVersion(): string {
  const manifest = new URL('../../../package.json', import.meta.url);
  return z.object({ version: z.string() }).parse(JSON.parse(readFileSync(manifest, 'utf8')))
    .version;
}

/** An address only this machine reaches: the zero-configuration demo stays on it. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

function isLoopbackUrl(url: string): boolean {
  return isLoopback(new URL(url).hostname);
}

function decodeKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

/**
 * Reads Earshot's configuration from the environment. Relative paths are resolved against the
 * directory npm was started from (INIT_CWD), so `npm start` at the repo root keeps data in ./data.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const baseDir = env.INIT_CWD ?? process.cwd();
  const reachableHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  const publicUrl = (e.PUBLIC_URL ?? `http://${reachableHost}:${e.PORT}`).replace(/\/+$/, '');
  if (e.DATABASE_URL && !e.ENCRYPTION_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  ENCRYPTION_KEY: required with DATABASE_URL (32 bytes as hex or base64), so that every process can read the stored Spotify tokens',
    );
  }
  const sandboxMounted = e.SPOTIFY_CLIENT_ID === undefined;
  if (sandboxMounted && !e.DEMO_MODE && !(isLoopback(e.HOST) && isLoopbackUrl(publicUrl))) {
    throw new ConfigError(
      `Refusing to start: no Spotify app is configured (SPOTIFY_CLIENT_ID), so the demo sandbox would be served on ${publicUrl} (HOST ${e.HOST}), where anyone who reaches it can log in as any demo account and download its history. Configure a Spotify app, keep HOST and PUBLIC_URL on a loopback address, or set DEMO_MODE=true to serve the public demo on purpose.`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(baseDir, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    encryptionKey: e.ENCRYPTION_KEY ? decodeKey(e.ENCRYPTION_KEY) : undefined,
    spotify: {
      clientId: e.SPOTIFY_CLIENT_ID ?? DEMO_CLIENT_ID,
      // The mounted sandbox registers Earshot with a secret of this process's own, as Spotify
      // gives every app one: it lets visitors' pages be filled with an app token.
      clientSecret:
        e.SPOTIFY_CLIENT_SECRET ??
        (sandboxMounted ? randomBytes(24).toString('base64url') : undefined),
      accountsUrl: (
        e.SPOTIFY_ACCOUNTS_URL ??
        (sandboxMounted ? `${publicUrl}/sandbox/accounts` : SPOTIFY_ACCOUNTS_URL)
      ).replace(/\/+$/, ''),
      apiUrl: (
        e.SPOTIFY_API_URL ?? (sandboxMounted ? `${publicUrl}/sandbox/v1` : SPOTIFY_API_URL)
      ).replace(/\/+$/, ''),
      sdkUrl:
        e.SPOTIFY_SDK_URL ??
        (sandboxMounted ? `${publicUrl}/sandbox/sdk/spotify-player.js` : SPOTIFY_SDK_URL),
      redirectUri: `${publicUrl}/api/spotify/callback`,
      sandboxMounted,
    },
    adminEmails: new Set(
      e.ADMIN_EMAILS.split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
    betaInviteOnly: e.BETA_INVITE_ONLY,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    logLevel: e.LOG_LEVEL,
    secureCookies: e.SECURE_COOKIES || publicUrl.startsWith('https://'),
    jobsInProcess: e.JOBS_IN_PROCESS,
    metricsToken: e.METRICS_TOKEN,
    activityCacheBytes: e.ACTIVITY_CACHE_MB * 1024 * 1024,
    live: {
      heartbeatMs: e.LIVE_HEARTBEAT_SEC * 1000,
      maxBufferedBytes: e.LIVE_MAX_BUFFER_KB * 1024,
      nowPlayingTickMs: e.NOW_PLAYING_TICK_SEC * 1000,
      nowPlayingBudgetPer30s: e.NOW_PLAYING_BUDGET_PER_30S,
    },
    visitorFillBudgetPer30s: e.VISITOR_FILL_BUDGET_PER_30S,
    import: {
      dir: path.resolve(baseDir, e.IMPORT_DIR ?? path.join(e.DATA_DIR, 'imports')),
      maxUploadBytes: e.IMPORT_MAX_UPLOAD_BYTES,
      maxTotalBytes: Math.max(e.IMPORT_MAX_TOTAL_BYTES, e.IMPORT_MAX_UPLOAD_BYTES),
      cooldownSec: e.IMPORT_COOLDOWN_SEC,
    },
    exportDir: path.resolve(baseDir, e.EXPORT_DIR ?? path.join(e.DATA_DIR, 'exports')),
    version: readVersion(),
    webDistDir: path.resolve(new URL('.', import.meta.url).pathname, '../../web/dist'),
    sentryDsn: e.SENTRY_DSN,
  };
}
