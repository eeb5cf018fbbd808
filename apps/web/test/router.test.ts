import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageHandle } from '../src/app/pages';
import { withPageData, type FirstNavigation } from '../src/app/router';
import { FIRST_PAINT_WAIT_MS } from '../src/lib/constants';

function runLoader(route: RouteObject) {
  const loader = route.loader as (
    args: Pick<LoaderFunctionArgs, 'params' | 'request'>,
  ) => Promise<unknown>;
  return loader({ params: { handle: 'mara' }, request: new Request('http://localhost/user/mara') });
}

/** Whether `promise` has settled once pending callbacks have run. */
async function settles(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await vi.advanceTimersByTimeAsync(0);
  return settled;
}

const later = (): FirstNavigation => ({ pending: false });

afterEach(() => {
  vi.useRealTimers();
});

describe('a page route’s loader', () => {
  it('starts the page’s chunk and its data with the navigation', async () => {
    const queryClient = new QueryClient();
    const handle: PageHandle = {
      preload: vi.fn(() => Promise.resolve()),
      data: vi.fn(() => new Promise<never>(() => undefined)),
    };
    await expect(
      runLoader(withPageData({ path: 'user/:handle', handle }, queryClient, later())),
    ).resolves.toBeNull();
    expect(handle.preload).toHaveBeenCalledTimes(1);
    expect(handle.data).toHaveBeenCalledWith(
      queryClient,
      { handle: 'mara' },
      new URL('http://localhost/user/mara'),
    );
  });

  it('waits for them on the document’s own navigation only, and for at most a second', async () => {
    vi.useFakeTimers();
    let answer = (): void => undefined;
    const handle: PageHandle = {
      preload: vi.fn(() => Promise.resolve()),
      data: vi.fn(() => new Promise<void>((resolve) => (answer = resolve))),
    };
    const firstNavigation = { pending: true };
    const route = withPageData(
      { path: 'user/:handle', handle },
      new QueryClient(),
      firstNavigation,
    );

    const first = runLoader(route);
    expect(await settles(first)).toBe(false);
    answer();
    expect(await settles(first)).toBe(true);
    expect(firstNavigation.pending).toBe(false);

    // A later navigation returns at once, whatever its data does.
    expect(await settles(runLoader(route))).toBe(true);

    // A document whose data never comes paints after FIRST_PAINT_WAIT_MS anyway.
    const stalled = withPageData(
      {
        path: 'user/:handle',
        handle: { ...handle, data: () => new Promise<never>(() => undefined) },
      },
      new QueryClient(),
      { pending: true },
    );
    const waiting = runLoader(stalled);
    await vi.advanceTimersByTimeAsync(FIRST_PAINT_WAIT_MS - 1);
    expect(await settles(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settles(waiting)).toBe(true);
  });

  it('leaves a chunk only users need to intent', async () => {
    const handle: PageHandle = {
      preload: vi.fn(() => Promise.resolve()),
      chunkForUsersOnly: true,
    };
    await runLoader(withPageData({ index: true, handle }, new QueryClient(), { pending: true }));
    expect(handle.preload).not.toHaveBeenCalled();
  });

  it('keeps a failed chunk download or data request for the page to report', async () => {
    const handle: PageHandle = {
      preload: vi.fn(() => Promise.reject(new Error('offline'))),
      data: vi.fn(() => Promise.reject(new Error('offline'))),
    };
    const route = withPageData({ path: 'friends', handle }, new QueryClient(), { pending: true });
    await expect(runLoader(route)).resolves.toBeNull();
    await expect(runLoader(route)).resolves.toBeNull();
    expect(handle.preload).toHaveBeenCalledTimes(2);
  });

  it('leaves routes without a handle as they are', () => {
    const route: RouteObject = { path: 'elsewhere' };
    expect(withPageData(route, new QueryClient(), later())).toBe(route);
  });
});
