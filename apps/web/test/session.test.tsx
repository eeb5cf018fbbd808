import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  currentUserQueryOptions,
  useCurrentUserQuery,
} from '../src/features/account/api/currentUser';
import { ApiError } from '../src/lib/apiClient';
import { FETCHED_JUST_NOW_MS } from '../src/lib/constants';
import { createQueryClient } from '../src/lib/queryClient';
import { ada, fakeApi, json, requestedUrls } from './fakeApi';

describe('the session query as a page mounts', () => {
  it('keeps a failure answered just now, and asks again after an older one', async () => {
    const api = fakeApi({ 'GET /api/user/me': json(200, ada) });
    const queryClient = createQueryClient();
    // What a route's loader leaves when the server is down as the navigation starts.
    await queryClient.prefetchQuery({
      ...currentUserQueryOptions(),
      queryFn: () => Promise.reject(new ApiError(503, 'Service unavailable')),
      retry: false,
    });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );

    const justAfter = renderHook(() => useCurrentUserQuery(), { wrapper });
    expect(justAfter.result.current.status).toBe('error');
    expect(requestedUrls(api)).toEqual([]);
    justAfter.unmount();

    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + FETCHED_JUST_NOW_MS);
    const later = renderHook(() => useCurrentUserQuery(), { wrapper });
    await waitFor(() => expect(later.result.current.data).toEqual(ada));
    expect(requestedUrls(api)).toEqual(['/api/user/me']);
  });
});
