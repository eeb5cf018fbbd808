import { backendStatus } from '@earshot/contract/status';
import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  errorTextFromResponseBody,
  requestJson,
  requestWithoutContent,
} from '../src/lib/apiClient';
import { loadPage } from '../src/lib/browserLocation';
import { fakeApi, json } from './fakeApi';

vi.mock('../src/lib/browserLocation', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

describe('error text extraction (docs/product.md §8)', () => {
  it.each([
    ['a string detail', '{"detail":"Track not found"}', 'Track not found'],
    ["the detail's message", '{"detail":{"message":"Token expired","code":7}}', 'Token expired'],
    ['the serialised detail', '{"detail":{"code":7}}', '{"code":7}'],
    ['the serialised non-object detail', '{"detail":["a","b"]}', '["a","b"]'],
    ['the raw body without a detail', '{"error":"nope"}', '{"error":"nope"}'],
    ['the raw body when it is not JSON', 'Bad Gateway from proxy', 'Bad Gateway from proxy'],
  ])('takes %s', (_case, body, expected) => {
    expect(errorTextFromResponseBody(body, 502, 'Bad Gateway')).toBe(expected);
  });

  it('falls back to status and status text for an empty body', () => {
    expect(errorTextFromResponseBody('', 503, 'Service Unavailable')).toBe(
      '503 Service Unavailable',
    );
    expect(errorTextFromResponseBody('', 500, '')).toBe('500');
  });
});

describe('API client', () => {
  it('sends credentials on every call and parses with the contract schema', async () => {
    const fetchMock = fakeApi({
      'GET /api/status': json(200, { version: '1.4.0' }),
      'POST /api/logout': () => new Response(null, { status: 204 }),
    });

    await expect(requestJson('/api/status', backendStatus)).resolves.toEqual({ version: '1.4.0' });
    await requestWithoutContent('/api/logout', { method: 'POST' });

    for (const [, init] of fetchMock.mock.calls) {
      expect(init).toMatchObject({ credentials: 'include' });
    }
  });

  it('reads an answer without content to its end, so its request does not stay open', async () => {
    const answer = new Response('{"version":"1.0.0"}', { status: 200 });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer));
    await requestWithoutContent('/api/status');
    expect(answer.bodyUsed).toBe(true);
  });

  it('sends a 401 to /login?next={path and query}', async () => {
    window.history.replaceState(null, '', '/recent/friends?q=abba&before=2024-01-01');
    fakeApi({ 'GET /api/recent': json(401, { detail: 'Not logged in' }) });

    const failure = requestJson('/api/recent', backendStatus);

    await expect(failure).rejects.toMatchObject({ status: 401, message: 'Not logged in' });
    expect(loadPage).toHaveBeenCalledOnce();
    const target = new URL(vi.mocked(loadPage).mock.calls[0]?.[0] ?? '', 'http://earshot.test');
    expect(target.pathname).toBe('/login');
    expect(target.searchParams.get('next')).toBe('/recent/friends?q=abba&before=2024-01-01');
  });

  it('leaves a 403 (signed in but not allowed) to the caller: no loop through /login', async () => {
    window.history.replaceState(null, '', '/ignored');
    fakeApi({ 'GET /api/admin/notifications': json(403, { detail: 'Admins only' }) });

    await expect(requestJson('/api/admin/notifications', backendStatus)).rejects.toMatchObject({
      status: 403,
      message: 'Admins only',
    });
    expect(loadPage).not.toHaveBeenCalled();
    expect(window.location.pathname).toBe('/ignored');
  });

  it('leaves the 401 to the caller when asked to (the current user)', async () => {
    fakeApi({ 'GET /api/user/me': json(401, { detail: 'Not logged in' }) });
    await expect(
      requestJson('/api/user/me', backendStatus, { redirectOnAuthFailure: false }),
    ).rejects.toMatchObject({ status: 401 });
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('does not redirect from the login page to itself', async () => {
    window.history.replaceState(null, '', '/login?next=%2Flikes');
    fakeApi({ 'GET /api/spotify/stats': json(401, { detail: 'Not logged in' }) });
    await expect(requestJson('/api/spotify/stats', backendStatus)).rejects.toBeInstanceOf(ApiError);
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('rejects other failures with the extracted error text', async () => {
    fakeApi({
      'GET /api/status': () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
    });
    await expect(requestJson('/api/status', backendStatus)).rejects.toMatchObject({
      status: 502,
      message: '502 Bad Gateway',
    });
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('reports an unreachable server as status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(requestJson('/api/status', backendStatus)).rejects.toMatchObject({
      status: 0,
      message: 'Unable to connect to the server',
    });
  });

  it('rejects answers that do not match the contract', async () => {
    fakeApi({ 'GET /api/status': json(200, { version: 14 }) });
    await expect(requestJson('/api/status', backendStatus)).rejects.toMatchObject({
      message: 'Malformed response from /api/status',
    });
  });
});
