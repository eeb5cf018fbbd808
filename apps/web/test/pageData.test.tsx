import { waitFor } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppRoutes } from '../src/app/router';
import { createQueryClient } from '../src/lib/queryClient';
import { activityPage, ignoredList } from './activityFixtures';
import { ada, fakeApi, json, loggedOut, requestedUrls, type FakeAnswer } from './fakeApi';

// Issue 11, part 4: a page's data starts with the navigation (its route's loader), beside the
// session, instead of after the page's code and then the session. Nothing is rendered here: the
// requests below come from the loaders alone.

function navigateTo(path: string, answers: Record<string, FakeAnswer>) {
  const fetchMock = fakeApi(answers);
  const queryClient = createQueryClient();
  const router = createMemoryRouter(createAppRoutes(queryClient), { initialEntries: [path] });
  return { fetchMock, queryClient, router };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('route loaders', () => {
  it('start a public page’s data at once, whoever looks', async () => {
    const { fetchMock, router } = navigateTo('/track/t1', { 'GET /api/user/me': loggedOut });
    await waitFor(() => expect(requestedUrls(fetchMock)).toContain('/api/track/t1'));
    // The navigation did not wait for it.
    expect(router.state.navigation.state).toBe('idle');
    router.dispose();
  });

  it('start a signed-in page’s data once the session names the user', async () => {
    const { fetchMock, queryClient, router } = navigateTo('/recent/friends?q=jazz', {
      'GET /api/user/me': json(200, ada),
      'GET /api/recent': activityPage([]),
      'GET /api/ignore': ignoredList(),
    });
    await waitFor(() =>
      expect(requestedUrls(fetchMock)).toEqual(
        expect.arrayContaining([
          '/api/user/me',
          '/api/recent?limit=30&include_me=false&q=jazz',
          '/api/ignore',
        ]),
      ),
    );
    // The page's own query finds it under its key.
    expect(
      queryClient.getQueryData(['activity', 'recent', { includeMe: false, user: null, q: 'jazz' }]),
    ).toBeDefined();
    router.dispose();
  });

  it('ask a visitor’s session only, on the landing page and on signed-in pages', async () => {
    for (const path of ['/', '/likes', '/friends']) {
      const { fetchMock, router } = navigateTo(path, { 'GET /api/user/me': loggedOut });
      await waitFor(() => expect(requestedUrls(fetchMock)).toContain('/api/user/me'));
      await new Promise((settled) => setTimeout(settled, 50));
      expect(requestedUrls(fetchMock)).toEqual(['/api/user/me']);
      router.dispose();
    }
  });
});
