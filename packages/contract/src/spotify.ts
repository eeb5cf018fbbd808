import { z } from 'zod';

const SITE = 'http://earshot.invalid';

/** WHATWG URL, as browsers and Node have it (the contract is built without DOM or Node types). */
declare const URL: new (
  input: string,
  base: string,
) => { origin: string; pathname: string; search: string; hash: string };

/**
 * Where a return path leads, read as a browser reads it (dot segments, backslashes and tabs
 * included): on this site, or undefined. `/..//evil.example` resolves to `//evil.example`, which
 * a browser would take for another host.
 */
export function resolveReturnPath(value: string): string | undefined {
  if (!value.startsWith('/')) return undefined;
  let url: InstanceType<typeof URL>;
  try {
    url = new URL(value, SITE);
  } catch {
    return undefined;
  }
  if (url.origin !== SITE || /^\/[/\\]/.test(url.pathname)) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A path inside Earshot to return to after login: never another origin. */
export const returnPath = z
  .string()
  .max(2048)
  .refine(
    (value) => resolveReturnPath(value) !== undefined,
    'must be a path on this site starting with a single "/"',
  );

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
