import { onlineManager } from '@tanstack/react-query';
import { loadPage } from './browserLocation';

/** A failed call to the Earshot API. `status` is 0 when the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export const NETWORK_ERROR_MESSAGE = 'Unable to connect to the server';

/** A change asked for while offline: refused at once, never queued to be sent later. */
export const OFFLINE_WRITE_MESSAGE =
  'You are offline: nothing was changed. Try again when you are back online.';

/** Anything that turns unknown JSON into a typed value or throws: a zod schema of the contract. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

/**
 * A schema, or how to load it: calls made on every page (the session, the player) load theirs
 * with the first answer to parse, so zod stays out of the visitors' entry chunk (decision 0023).
 */
export type ResponseSchemaSource<T> = ResponseSchema<T> | (() => Promise<ResponseSchema<T>>);

export interface ApiRequestInit {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON; a `FormData` is sent as multipart/form-data (file uploads). */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Whether a 401 answer sends the browser to `/login?next={path and query}` (docs/product.md,
   * Routes). Off only for calls whose 401 has a meaning of its own, like the current user. A 403
   * never does: it means "not allowed" while the session is valid, and the login page would send
   * a signed-in user straight back to the page that is refused (a redirect loop).
   */
  redirectOnAuthFailure?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The error text of a failed answer (docs/product.md §8): the body's `detail` (a string, or its
 * `message`, or the serialised detail), else the raw body, else status plus status text.
 */
export function errorTextFromResponseBody(
  body: string,
  status: number,
  statusText: string,
): string {
  if (body.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return body;
    }
    if (isRecord(parsed) && parsed.detail !== undefined) {
      const { detail } = parsed;
      if (typeof detail === 'string') return detail;
      if (isRecord(detail) && typeof detail.message === 'string') return detail.message;
      return JSON.stringify(detail);
    }
    return body;
  }
  return `${status} ${statusText}`.trim();
}

/** The login page that returns to the current path and query after logging in. */
function loginUrlReturningHere(): string {
  const next = `${window.location.pathname}${window.location.search}`;
  return `/login?${new URLSearchParams({ next }).toString()}`;
}

async function send(path: string, init: ApiRequestInit): Promise<Response> {
  const { method = 'GET', body, signal, redirectOnAuthFailure = true } = init;
  if (method !== 'GET' && !onlineManager.isOnline()) throw new ApiError(0, OFFLINE_WRITE_MESSAGE);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const multipart = body instanceof FormData;
  // A multipart body's Content-Type (with its boundary) is set by fetch itself.
  if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined || multipart ? body : JSON.stringify(body),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }

  if (response.ok) return response;

  if (response.status === 401 && redirectOnAuthFailure && window.location.pathname !== '/login') {
    loadPage(loginUrlReturningHere());
  }
  const text = await response.text();
  throw new ApiError(
    response.status,
    errorTextFromResponseBody(text, response.status, response.statusText),
  );
}

/** Calls the API and parses the JSON answer with the contract's schema. */
export async function requestJson<T>(
  path: string,
  schema: ResponseSchemaSource<T>,
  init: ApiRequestInit = {},
): Promise<T> {
  const response = await send(path, init);
  const parser = typeof schema === 'function' ? await schema() : schema;
  try {
    return parser.parse(await response.json());
  } catch {
    throw new ApiError(response.status, `Malformed response from ${path}`);
  }
}

/** Calls the API for its effect only (answers like 204 No Content). */
export async function requestWithoutContent(
  path: string,
  init: ApiRequestInit = {},
): Promise<void> {
  const response = await send(path, init);
  // Read to its end: a body left unread keeps its request open, and the page never idle.
  await response.arrayBuffer();
}
