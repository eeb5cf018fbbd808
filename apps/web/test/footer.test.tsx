import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../src/lib/queryClient';
import { FakePaintObserver } from './fakePaintObserver';
import { fakeApi, json, requestedUrls } from './fakeApi';

describe('the footer', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakePaintObserver.reset();
  });

  it("asks for the backend's status only once the page has painted (decision 0048)", async () => {
    vi.stubGlobal('PerformanceObserver', FakePaintObserver);
    // A new page load: the wait for the first paint is held once per page, by its module.
    vi.resetModules();
    const { Footer } = await import('../src/app/layout/Footer');
    const api = fakeApi({ 'GET /api/status': json(200, { version: '1.4.0' }) });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Footer />
      </QueryClientProvider>,
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByText('Checking…')).toBeInTheDocument();
    expect(requestedUrls(api)).toEqual([]);

    act(() => FakePaintObserver.paint());
    expect(await screen.findByText('Backend 1.4.0')).toBeInTheDocument();
    expect(screen.getByText('Connected')).toBeInTheDocument();
    expect(requestedUrls(api)).toEqual(['/api/status']);
  });
});
