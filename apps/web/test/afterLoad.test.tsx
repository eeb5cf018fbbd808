import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AFTER_FIRST_PAINT_MAX_WAIT_MS } from '../src/lib/constants';
import { FakePaintObserver } from './fakePaintObserver';

const layoutRendered = vi.fn();

/** AfterLoad as a new page load sees it: its wait is held once per page, by the module. */
async function freshAfterLoad() {
  vi.resetModules();
  return (await import('../src/lib/AfterLoad')).AfterLoad;
}

/** The layout around the deferred parts, telling each time it renders. */
async function renderLayout() {
  const AfterLoad = await freshAfterLoad();
  function Layout() {
    layoutRendered();
    return (
      <AfterLoad fallback={<p>placeholder</p>}>
        <p>the player</p>
      </AfterLoad>
    );
  }
  render(<Layout />);
}

describe('AfterLoad', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    FakePaintObserver.observers.clear();
    layoutRendered.mockClear();
  });

  it('shows its fallback until the page has loaded and the browser is idle, then its children', async () => {
    await renderLayout();
    expect(screen.getByText('placeholder')).toBeInTheDocument();
    expect(screen.queryByText('the player')).not.toBeInTheDocument();

    expect(await screen.findByText('the player')).toBeInTheDocument();
    expect(screen.queryByText('placeholder')).not.toBeInTheDocument();
    // Only the deferred part rendered again: the page around it did not.
    expect(layoutRendered).toHaveBeenCalledTimes(1);
  });

  it('waits for the first contentful paint where the browser reports paints', async () => {
    vi.stubGlobal('PerformanceObserver', FakePaintObserver);
    await renderLayout();
    // Loaded and idle, but not painted yet: still the fallback.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByText('placeholder')).toBeInTheDocument();

    act(() => FakePaintObserver.paint());
    expect(await screen.findByText('the player')).toBeInTheDocument();
  });

  it('stops waiting for a paint that does not come (a page opened in a background tab)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal('PerformanceObserver', FakePaintObserver);
    await renderLayout();
    await act(() => vi.advanceTimersByTimeAsync(AFTER_FIRST_PAINT_MAX_WAIT_MS - 100));
    expect(screen.getByText('placeholder')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(await screen.findByText('the player')).toBeInTheDocument();
  });
});
