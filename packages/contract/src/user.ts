import { z } from 'zod';

/**
 * The logged-in user (docs/product.md §3). Spotify apps in Development Mode hide the e-mail and
 * the plan, so both can be unknown (null); the UI must cope.
 */
export const currentUser = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    username: z.string(),
    name: z.string(),
    picture: z.string().nullable(),
    is_admin: z.boolean(),
    subscribed: z.boolean().nullable(),
  })
  .meta({ id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof currentUser>;

export const USERNAME_MAX_LENGTH = 40;
/** The characters a username may have: it is a path segment of the profile's address. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;
export const USERNAME_CHARACTERS_MESSAGE =
  'Username may only contain letters, digits, ".", "-" and "_".';

/** A user as lists and pages show them: name, picture and the username their profile lives at. */
export const userSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    username: z.string(),
    picture: z.string().nullable(),
  })
  .meta({ id: 'UserSummary' });
export type UserSummary = z.infer<typeof userSummary>;

/** A user named by a play, an event or a decision: who, and where their profile lives. */
export const userReference = z.object({ id: z.string(), username: z.string(), name: z.string() });

/** Usernames are URL-safe: letters, digits, dot, dash and underscore; unique ignoring case. */
export const usernameUpdate = z.object({
  username: z.string().trim().max(USERNAME_MAX_LENGTH, 'Username is too long.'),
});
export type UsernameUpdate = z.infer<typeof usernameUpdate>;

export const usernameUpdated = z.object({ username: z.string() }).meta({ id: 'UsernameUpdated' });

/**
 * `DELETE /api/user/me`: the typed confirmation is the account's username (compared ignoring
 * case and surrounding spaces).
 */
export const accountDeletion = z
  .object({ confirmation: z.string().max(200) })
  .meta({ id: 'AccountDeletion' });
export type AccountDeletion = z.infer<typeof accountDeletion>;
