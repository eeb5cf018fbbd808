import { badRequest } from './errors';

const BASE62_ID = /^[0-9A-Za-z]{22}$/;

/** A Spotify id: 22 characters of base62. */
export function isBase62Id(value: string): boolean {
  return BASE62_ID.test(value);
}

/** Checks a path id as Spotify does: a malformed one is a 400, before any look-up. */
export function assertBase62Id(value: string): string {
  if (!isBase62Id(value)) throw badRequest('Invalid base62 id');
  return value;
}

/**
 * The `ids` of a batch request (comma-separated, at most `max`), in request order with repeats
 * kept, each checked as base62 unless they are user ids (usernames).
 */
export function parseIdList(
  value: string | undefined,
  max: number,
  kind: 'base62' | 'user' = 'base62',
): string[] {
  if (value === undefined || value === '') throw badRequest('Missing required parameter: ids');
  const ids = value.split(',');
  if (ids.length > max) throw badRequest('Too many ids requested');
  if (kind === 'user') {
    if (ids.some((id) => id === '')) throw badRequest('Invalid user id');
    return ids;
  }
  return ids.map(assertBase62Id);
}

/** The kinds of item a Spotify URI names, as `/me/library` accepts them. */
export const LIBRARY_URI_TYPES = [
  'track',
  'album',
  'artist',
  'episode',
  'show',
  'audiobook',
  'user',
  'playlist',
] as const;
export type LibraryUriType = (typeof LIBRARY_URI_TYPES)[number];

export interface SpotifyUri {
  type: LibraryUriType;
  id: string;
}

function isLibraryUriType(value: string): value is LibraryUriType {
  return (LIBRARY_URI_TYPES as readonly string[]).includes(value);
}

/**
 * The `uris` of a `/me/library` request: `spotify:{type}:{id}`, comma-separated, at most `max`.
 * User ids are usernames, not base62; every other id must be base62.
 */
export function parseUriList(value: string | undefined, max: number): SpotifyUri[] {
  if (value === undefined || value === '') throw badRequest('Missing required parameter: uris');
  const uris = value.split(',');
  if (uris.length > max) throw badRequest(`Too many URIs requested: at most ${max}`);
  return uris.map((uri) => {
    const match = /^spotify:([a-z]+):([^:]+)$/.exec(uri);
    if (!match?.[1] || !match[2]) throw badRequest(`Invalid URI: ${uri}`);
    const [, type, id] = match;
    if (!isLibraryUriType(type)) throw badRequest(`Unsupported URI type: ${type}`);
    if (type !== 'user' && !isBase62Id(id)) throw badRequest('Invalid base62 id');
    return { type, id };
  });
}
