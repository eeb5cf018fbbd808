import { z } from 'zod';

/** A path inside Earshot to return to after login: absolute path, never another origin. */
export const returnPath = z
  .string()
  .max(2048)
  .regex(/^\/(?![/\\])/, 'must be a path on this site starting with a single "/"');

export const authorizeQuery = z.object({ next: returnPath.default('/') });
export type AuthorizeQuery = z.infer<typeof authorizeQuery>;

export const authorizationResponse = z
  .object({ authorization_url: z.string() })
  .meta({ id: 'AuthorizationResponse' });
export type AuthorizationResponse = z.infer<typeof authorizationResponse>;

/** Whether the user's Spotify connection works (false once Spotify revoked it). */
export const streamingStats = z.object({ active: z.boolean() }).meta({ id: 'StreamingStats' });
export type StreamingStats = z.infer<typeof streamingStats>;

export const oauthCallbackQuery = z.object({
  code: z.string().min(1).optional(),
  state: z.string().min(1).optional(),
  error: z.string().optional(),
});
