import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { PageHandle } from '../src/app/pages';
import { withPageData } from '../src/app/router';

function runLoader(route: RouteObject) {
  const loader = route.loader as (args: Pick<LoaderFunctionArgs, 'params' | 'request'>) => unknown;
  return loader({ params: { handle: 'mara' }, request: new Request('http://localhost/user/mara') });
}

describe('a page route’s loader', () => {
  it('starts the page’s chunk and its data with the navigation, and returns at once', () => {
    const queryClient = new QueryClient();
    const handle: PageHandle = {
      preload: vi.fn(() => Promise.resolve()),
      data: vi.fn(() => new Promise<never>(() => undefined)),
    };
    expect(runLoader(withPageData({ path: 'user/:handle', handle }, queryClient))).toBeNull();
    expect(handle.preload).toHaveBeenCalledTimes(1);
    expect(handle.data).toHaveBeenCalledWith(
      queryClient,
      { handle: 'mara' },
      new URL('http://localhost/user/mara'),
    );
  });

  it('leaves a chunk only users need to intent', () => {
    const handle: PageHandle = {
      preload: vi.fn(() => Promise.resolve()),
      chunkForUsersOnly: true,
    };
    runLoader(withPageData({ index: true, handle }, new QueryClient()));
    expect(handle.preload).not.toHaveBeenCalled();
  });

  it('keeps a failed chunk download for the page to report', async () => {
    const handle: PageHandle = { preload: vi.fn(() => Promise.reject(new Error('offline'))) };
    expect(runLoader(withPageData({ path: 'friends', handle }, new QueryClient()))).toBeNull();
    await Promise.resolve();
    expect(handle.preload).toHaveBeenCalledTimes(1);
  });

  it('leaves routes without a handle as they are', () => {
    const route: RouteObject = { path: 'elsewhere' };
    expect(withPageData(route, new QueryClient())).toBe(route);
  });
});
