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

/** Anything that turns unknown JSON into a typed value or throws: a zod schema of the contract. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

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
  schema: ResponseSchema<T>,
  init: ApiRequestInit = {},
): Promise<T> {
  const response = await send(path, init);
  try {
    return schema.parse(await response.json());
  } catch {
    throw new ApiError(response.status, `Malformed response from ${path}`);
  }
}

/** Calls the API for its effect only (answers like 204 No Content). */
export async function requestWithoutContent(
  path: string,
  init: ApiRequestInit = {},
): Promise<void> {
  await send(path, init);
}
