import { badRequest } from './errors';

/** One query parameter; a repeated one counts by its first value, as Spotify reads them. */
export function queryParam(query: unknown, name: string): string | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const value: unknown = (query as Record<string, unknown>)[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

const WHOLE_NUMBER = /^\d+$/;

export interface LimitRule {
  default: number;
  max: number;
}

/** `limit`: a whole number from 1 to the endpoint's maximum, else Spotify's 400 "Invalid limit". */
export function parseLimit(value: string | undefined, rule: LimitRule): number {
  if (value === undefined || value === '') return rule.default;
  const limit = WHOLE_NUMBER.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= rule.max)) throw badRequest('Invalid limit');
  return limit;
}

/** `offset`: a whole number from 0 (up to `max` where the endpoint has one). */
export function parseOffset(value: string | undefined, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value === '') return 0;
  const offset = WHOLE_NUMBER.test(value) ? Number(value) : NaN;
  if (!(offset >= 0 && offset <= max)) throw badRequest('Invalid offset');
  return offset;
}

/** A millisecond timestamp cursor of recently-played. */
export function parseTimestamp(value: string, name: string): number {
  const ms = WHOLE_NUMBER.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(ms)) throw badRequest(`Invalid ${name} parameter`);
  return ms;
}

/**
 * An absolute Web API URL below the sandbox's public URL, parameters in the given order and the
 * undefined ones left out: `apiUrl(base, '/me/tracks', [['offset', 0], ['limit', 20]])`.
 */
export function apiUrl(
  publicUrl: string,
  path: string,
  params: ReadonlyArray<readonly [string, string | number | undefined]> = [],
): string {
  const query = params
    .filter((entry): entry is readonly [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeQueryValue(String(value))}`)
    .join('&');
  return `${publicUrl}/v1${path}${query ? `?${query}` : ''}`;
}

/** Percent-encodes a query value, keeping commas as Spotify's links do (`type=track,album`). */
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/g, ',');
}

export interface PageWindow {
  offset: number;
  limit: number;
}

/** Builds the URL of a page of the same listing at another offset. */
export type PageLink = (offset: number, limit: number) => string;

/**
 * Spotify's offset paging object, keys in Spotify's order. `items` are the page's items (already
 * sliced at `window`), `total` how many the whole listing has.
 */
export function pagingObject<T>(link: PageLink, window: PageWindow, total: number, items: T[]) {
  const { offset, limit } = window;
  return {
    href: link(offset, limit),
    items,
    limit,
    next: offset + limit < total ? link(offset + limit, limit) : null,
    offset,
    previous: offset > 0 ? link(Math.max(0, offset - limit), limit) : null,
    total,
  };
}

/** A page of an in-memory listing, each item on the page mapped. */
export function pageOf<T, R>(
  link: PageLink,
  window: PageWindow,
  all: readonly T[],
  map: (item: T) => R,
) {
  const items = all.slice(window.offset, window.offset + window.limit).map(map);
  return pagingObject(link, window, all.length, items);
}
