import type { CurrentUser } from '@earshot/contract/user';
import { vi } from 'vitest';

/** An answer to a request; `url` is the requested URL, query string included. */
export type FakeAnswer = (url?: string) => Response | Promise<Response>;

export function json(status: number, body: unknown): FakeAnswer {
  return () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
}

export function noContent(): FakeAnswer {
  return () => new Response(null, { status: 204 });
}

export const ada: CurrentUser = {
  id: 'user-ada',
  email: 'ada@example.com',
  username: 'ada',
  name: 'Ada Lovelace',
  picture: null,
  is_admin: false,
  subscribed: true,
};

export const loggedOut: FakeAnswer = json(401, { detail: 'Not logged in' });

/**
 * Replaces `fetch` with a fake API answering "METHOD /path" keys (query strings ignored);
 * anything else is a 404. Returns the mock to inspect the calls.
 */
export function fakeApi(answers: Record<string, FakeAnswer>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const path = url.split('?')[0] ?? url;
    const key = `${init?.method ?? 'GET'} ${path}`;
    const answer = answers[key] ?? json(404, { detail: `No fake answer for ${key}` });
    return answer(url);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The URLs `fetch` was called with, in order. */
export function requestedUrls(fetchMock: ReturnType<typeof fakeApi>): string[] {
  return fetchMock.mock.calls.map(([input]) => String(input));
}
