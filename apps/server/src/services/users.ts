import {
  USERNAME_CHARACTERS_MESSAGE,
  USERNAME_MAX_LENGTH,
  USERNAME_PATTERN,
  type CurrentUser,
} from '@earshot/contract/user';
import { and, eq, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { users, type UserRow } from '../db/schema/users';
import type { PrivateUser, TokenResponse } from '../spotify/schemas';
import { HttpError } from '../errors';
import { saveSpotifyGrant } from './spotify-accounts';
import type { TokenCipher } from './token-cipher';

const UNIQUE_VIOLATION = '23505';
/** Latin letters that Unicode does not decompose into a base letter plus accents. */
const LETTERS_WITHOUT_DECOMPOSITION: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  đ: 'd',
  þ: 'th',
};

/**
 * A URL-safe, lower-case handle from a display name: accents folded, anything else turned into
 * single dashes, at most 40 characters. Falls back to the Spotify id, then to "listener".
 */
export function usernameBase(displayName: string | null | undefined, spotifyId: string): string {
  const slug = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[łøßæœđþ]/g, (letter) => LETTERS_WITHOUT_DECOMPOSITION[letter] ?? letter)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, USERNAME_MAX_LENGTH)
      .replace(/-+$/, '');
  return slug(displayName ?? '') || slug(spotifyId) || 'listener';
}

async function freeUsername(db: Db | Tx, base: string): Promise<string> {
  const taken = await db
    .select({ username: sql<string>`lower(${users.username})` })
    .from(users)
    .where(sql`lower(${users.username}) like ${`${base}%`}`);
  const used = new Set(taken.map((row) => row.username));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, USERNAME_MAX_LENGTH - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return (error as { code?: string }).code === UNIQUE_VIOLATION || cause?.code === UNIQUE_VIOLATION;
}

/**
 * Creates or refreshes the Earshot user behind a Spotify profile and stores the new tokens, in
 * one transaction. Fields Spotify hides (Development Mode: e-mail, plan) keep what was known
 * before, else null.
 */
export async function upsertSpotifyUser(
  db: Db,
  cipher: TokenCipher,
  profile: PrivateUser,
  token: TokenResponse & { refresh_token: string },
): Promise<UserRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => upsertOnce(tx, cipher, profile, token));
    } catch (error) {
      // A concurrent first login took the same username between our check and insert.
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

async function upsertOnce(
  db: Tx,
  cipher: TokenCipher,
  profile: PrivateUser,
  token: TokenResponse & { refresh_token: string },
): Promise<UserRow> {
  const known = {
    name: profile.display_name?.trim() || profile.id,
    picture: profile.images?.[0]?.url ?? null,
    ...(profile.email !== undefined && { email: profile.email }),
    ...(profile.product !== undefined && { subscribed: profile.product === 'premium' }),
    updatedAt: new Date(),
  };
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.spotifyId, profile.id));
  const [user] = existing
    ? await db.update(users).set(known).where(eq(users.id, existing.id)).returning()
    : await db
        .insert(users)
        .values({
          spotifyId: profile.id,
          username: await freeUsername(db, usernameBase(profile.display_name, profile.id)),
          ...known,
        })
        .returning();
  if (!user) throw new Error(`Upsert of Spotify user ${profile.id} returned nothing`);
  await saveSpotifyGrant(db, user.id, {
    accessTokenEncrypted: cipher.encrypt(token.access_token),
    refreshTokenEncrypted: cipher.encrypt(token.refresh_token),
    accessTokenExpiresAt: new Date(Date.now() + token.expires_in * 1000),
    scopes: token.scope,
  });
  return user;
}

/** Admins are the users whose Spotify e-mail is listed in ADMIN_EMAILS. */
export function isAdminEmail(email: string | null, adminEmails: ReadonlySet<string>): boolean {
  return email !== null && adminEmails.has(email.toLowerCase());
}

export function toCurrentUser(user: UserRow, adminEmails: ReadonlySet<string>): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    name: user.name,
    picture: user.picture,
    is_admin: isAdminEmail(user.email, adminEmails),
    subscribed: user.subscribed,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether a text has the form of a user id (a UUID), before it reaches SQL as one. */
export const isUserId = (value: string) => UUID.test(value);

/** A user by username (any case) or id, as `/user/{username or id}` links name them. */
export async function findUserByHandle(db: Db, handle: string): Promise<UserRow | undefined> {
  const byUsername = sql`lower(${users.username}) = lower(${handle})`;
  const [user] = await db
    .select()
    .from(users)
    .where(isUserId(handle) ? or(eq(users.id, handle), byUsername) : byUsername)
    .limit(1);
  return user;
}

/** The user named in a route, or 404. */
export async function requireUserByHandle(db: Db, handle: string): Promise<UserRow> {
  const user = await findUserByHandle(db, handle);
  if (!user) throw new HttpError(404, 'User not found');
  return user;
}

/** Sets a new username (already trimmed): 400 when empty or not URL-safe, 409 when taken. */
export async function changeUsername(db: Db, userId: string, username: string): Promise<string> {
  if (username === '') throw new HttpError(400, 'Username cannot be empty.');
  if (username.length > USERNAME_MAX_LENGTH) {
    throw new HttpError(400, `Username can have at most ${USERNAME_MAX_LENGTH} characters.`);
  }
  if (!USERNAME_PATTERN.test(username)) {
    throw new HttpError(400, USERNAME_CHARACTERS_MESSAGE);
  }
  const taken = async () => {
    const [other] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.username}) = lower(${username})`, ne(users.id, userId)));
    return other !== undefined;
  };
  if (await taken()) throw new HttpError(409, 'That username is taken.');
  try {
    await db.update(users).set({ username, updatedAt: new Date() }).where(eq(users.id, userId));
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'That username is taken.');
    throw error;
  }
  return username;
}

/** Usernames of the users whose public profiles a sitemap lists, newest connections last. */
export async function publicProfileHandles(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .select({ username: users.username })
    .from(users)
    .orderBy(users.createdAt)
    .limit(limit);
  return rows.map((row) => row.username);
}

/** The user row, locked until the transaction ends (nothing else changes it meanwhile). */
export async function lockUser(tx: Tx, userId: string): Promise<UserRow | undefined> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  return user;
}

/**
 * Deletes the user row; its foreign keys cascade to every row that belongs to the user (plays,
 * likes, aggregates, friendships both ways, requests, ignores and reports, sessions, Spotify
 * tokens, imports, data exports). Admin decisions stay in the history without their author.
 */
export async function deleteUserRow(tx: Tx, userId: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, userId));
}
