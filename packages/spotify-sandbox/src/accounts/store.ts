import { createHash, randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { Clock } from '../clock';
import { JsonStateFile } from '../json-state-file';

const AUTHORIZATION_CODE_LIFETIME_MS = 10 * 60 * 1000;
/** Refresh tokens stop working this many calendar months after the user authorized the app. */
const REFRESH_TOKEN_LIFETIME_MONTHS = 6;
/** Expired records are kept this long so callers hear "expired" rather than "invalid". */
const EXPIRED_RECORD_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
export const STATE_FILE_NAME = 'spotify-sandbox-accounts.json';

const scopes = z.array(z.string());

const codeRecord = z.object({
  clientId: z.string(),
  accountId: z.string(),
  redirectUri: z.string(),
  scopes,
  codeChallenge: z.string().nullable(),
  expiresAt: z.number(),
  redeemed: z.boolean(),
});
export type CodeRecord = z.infer<typeof codeRecord>;

const grantRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  accountId: z.string(),
  scopes,
  /** Authorized with PKCE: the app may refresh with its client id alone. */
  pkce: z.boolean(),
  authorizedAt: z.number(),
  /** When the grant's refresh tokens stop working. */
  expiresAt: z.number(),
  /** When the grant was revoked (sandbox control API); its refresh tokens then answer "revoked". */
  revokedAt: z.number().optional(),
});
export type Grant = z.infer<typeof grantRecord>;

const accessTokenRecord = z.object({
  clientId: z.string(),
  /** Null for an app's own token (client_credentials): no user behind it. */
  accountId: z.string().nullable(),
  scopes,
  expiresAt: z.number(),
});
export type AccessToken = z.infer<typeof accessTokenRecord>;

/** On disk every token and code is keyed by its SHA-256, never stored in the clear. */
const persistedState = z.object({
  version: z.literal(1),
  codes: z.record(z.string(), codeRecord),
  grants: z.record(z.string(), grantRecord),
  refreshTokens: z.record(z.string(), z.object({ grantId: z.string() })),
  accessTokens: z.record(z.string(), accessTokenRecord),
});

export type Lookup<T, Reason extends string = 'invalid' | 'expired'> =
  { ok: true; value: T } | { ok: false; reason: Reason };

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  scopes: string[];
  expiresInSec: number;
}

export interface StoreOptions {
  clock: Clock;
  accessTokenTtlSec: number;
  /** Folder of the JSON state file; in memory only when absent. */
  dataDir?: string;
}

/** Authorization codes, grants and tokens of the sandbox's accounts service. */
export class AuthorizationStore {
  private readonly codes = new Map<string, CodeRecord>();
  private readonly grants = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, { grantId: string }>();
  private readonly accessTokens = new Map<string, AccessToken>();

  private constructor(
    private readonly clock: Clock,
    private ttlSec: number,
    private readonly file: JsonStateFile | undefined,
  ) {}

  /** Lifetime of the access tokens issued from now on. */
  get accessTokenTtlSec(): number {
    return this.ttlSec;
  }

  /** Changes the lifetime of access tokens issued from now on; tokens already out keep theirs. */
  setAccessTokenTtl(seconds: number): void {
    if (!Number.isInteger(seconds) || seconds <= 0) {
      throw new RangeError('an access token lifetime must be a positive whole number of seconds');
    }
    this.ttlSec = seconds;
  }

  static async open(options: StoreOptions): Promise<AuthorizationStore> {
    const file = options.dataDir
      ? new JsonStateFile(path.join(options.dataDir, STATE_FILE_NAME))
      : undefined;
    const store = new AuthorizationStore(options.clock, options.accessTokenTtlSec, file);
    if (file) store.restore(file.filePath, await file.read());
    return store;
  }

  issueCode(code: Omit<CodeRecord, 'expiresAt' | 'redeemed'>): string {
    this.prune();
    const value = newSecret(48);
    this.codes.set(digest(value), {
      ...code,
      expiresAt: this.clock.now() + AUTHORIZATION_CODE_LIFETIME_MS,
      redeemed: false,
    });
    return value;
  }

  /** Consumes a code: whatever the outcome of the exchange, it never works a second time. */
  redeemCode(value: string): Lookup<CodeRecord> {
    const code = this.codes.get(digest(value));
    if (!code || code.redeemed) return { ok: false, reason: 'invalid' };
    code.redeemed = true;
    if (this.clock.now() >= code.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, value: code };
  }

  /** Records the user's authorization of an app and issues its first tokens. */
  authorize(input: {
    clientId: string;
    accountId: string;
    scopes: string[];
    pkce: boolean;
  }): IssuedTokens {
    this.prune();
    const now = this.clock.now();
    const grant: Grant = {
      id: randomUUID(),
      ...input,
      authorizedAt: now,
      expiresAt: addUtcMonths(now, REFRESH_TOKEN_LIFETIME_MONTHS),
    };
    this.grants.set(grant.id, grant);
    return this.issueTokens(grant);
  }

  findGrantByRefreshToken(value: string): Lookup<Grant, 'invalid' | 'expired' | 'revoked'> {
    const entry = this.refreshTokens.get(digest(value));
    const grant = entry && this.grants.get(entry.grantId);
    if (!grant) return { ok: false, reason: 'invalid' };
    if (grant.revokedAt !== undefined) return { ok: false, reason: 'revoked' };
    if (this.clock.now() >= grant.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, value: grant };
  }

  /** Exchanges a (single-use) refresh token for new tokens; the presented one stops working. */
  rotateRefreshToken(presented: string, grant: Grant): IssuedTokens {
    this.prune();
    this.refreshTokens.delete(digest(presented));
    return this.issueTokens(grant);
  }

  findAccessToken(value: string): Lookup<AccessToken> {
    const token = this.accessTokens.get(digest(value));
    if (!token) return { ok: false, reason: 'invalid' };
    if (this.clock.now() >= token.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, value: token };
  }

  /** Whether the user already granted the app all of these scopes (Spotify then skips consent). */
  hasGrantCovering(clientId: string, accountId: string, requested: readonly string[]): boolean {
    const now = this.clock.now();
    for (const grant of this.grants.values()) {
      if (grant.clientId !== clientId || grant.accountId !== accountId) continue;
      if (now >= grant.expiresAt || grant.revokedAt !== undefined) continue;
      if (requested.every((scope) => grant.scopes.includes(scope))) return true;
    }
    return false;
  }

  /**
   * Revokes an account's grants (of one app, or of every app): their refresh tokens answer
   * "revoked" and the account's access tokens for those apps stop working at once.
   * Returns how many grants were revoked.
   */
  revokeGrants(accountId: string, clientId?: string): number {
    const concerns = (record: { accountId: string | null; clientId: string }) =>
      record.accountId === accountId && (clientId === undefined || record.clientId === clientId);
    const now = this.clock.now();
    let revoked = 0;
    for (const grant of this.grants.values()) {
      if (!concerns(grant) || grant.revokedAt !== undefined || now >= grant.expiresAt) continue;
      grant.revokedAt = now;
      revoked += 1;
    }
    for (const [key, token] of this.accessTokens)
      if (concerns(token)) this.accessTokens.delete(key);
    return revoked;
  }

  /** Makes every access token issued so far expire now. Returns how many were still valid. */
  expireAccessTokens(): number {
    const now = this.clock.now();
    let expired = 0;
    for (const token of this.accessTokens.values()) {
      if (token.expiresAt <= now) continue;
      token.expiresAt = now;
      expired += 1;
    }
    return expired;
  }

  /** Writes the state to the data folder, if there is one. */
  save(): Promise<void> {
    return this.file ? this.file.write(() => this.snapshot()) : Promise.resolve();
  }

  /** Resolves once pending writes are on disk. */
  settled(): Promise<void> {
    return this.file ? this.file.settled() : Promise.resolve();
  }

  /** An access token for the app itself (client_credentials): catalogue only, no refresh. */
  issueAppToken(clientId: string): { accessToken: string; expiresInSec: number } {
    const accessToken = newSecret(48);
    this.accessTokens.set(digest(accessToken), {
      clientId,
      accountId: null,
      scopes: [],
      expiresAt: this.clock.now() + this.ttlSec * 1000,
    });
    return { accessToken, expiresInSec: this.ttlSec };
  }

  private issueTokens(grant: Grant): IssuedTokens {
    const accessToken = newSecret(48);
    const refreshToken = newSecret(48);
    this.accessTokens.set(digest(accessToken), {
      clientId: grant.clientId,
      accountId: grant.accountId,
      scopes: grant.scopes,
      expiresAt: this.clock.now() + this.ttlSec * 1000,
    });
    this.refreshTokens.set(digest(refreshToken), { grantId: grant.id });
    return {
      accessToken,
      refreshToken,
      scopes: grant.scopes,
      expiresInSec: this.ttlSec,
    };
  }

  private prune(): void {
    const horizon = this.clock.now() - EXPIRED_RECORD_RETENTION_MS;
    for (const records of [this.codes, this.grants, this.accessTokens]) {
      for (const [key, record] of records) if (record.expiresAt <= horizon) records.delete(key);
    }
    for (const [key, { grantId }] of this.refreshTokens) {
      if (!this.grants.has(grantId)) this.refreshTokens.delete(key);
    }
  }

  private snapshot(): z.infer<typeof persistedState> {
    return {
      version: 1,
      codes: Object.fromEntries(this.codes),
      grants: Object.fromEntries(this.grants),
      refreshTokens: Object.fromEntries(this.refreshTokens),
      accessTokens: Object.fromEntries(this.accessTokens),
    };
  }

  private restore(filePath: string, document: unknown): void {
    if (document === undefined) return;
    const parsed = persistedState.safeParse(document);
    if (!parsed.success) {
      throw new Error(
        `spotify-sandbox: ${filePath} is not a sandbox state file (${parsed.error.message}); ` +
          'move it away to start with no connected users',
      );
    }
    for (const [key, value] of Object.entries(parsed.data.codes)) this.codes.set(key, value);
    for (const [key, value] of Object.entries(parsed.data.grants)) this.grants.set(key, value);
    for (const [key, value] of Object.entries(parsed.data.refreshTokens)) {
      this.refreshTokens.set(key, value);
    }
    for (const [key, value] of Object.entries(parsed.data.accessTokens)) {
      this.accessTokens.set(key, value);
    }
    this.prune();
  }
}

function newSecret(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Calendar months in UTC, clamped to the last day of the target month (Aug 31 + 6 → Feb 28). */
export function addUtcMonths(ms: number, months: number): number {
  const date = new Date(ms);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}
