import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AFTER_FIRST_PAINT_MAX_WAIT_MS } from '../src/lib/constants';
import { FakePaintObserver } from './fakePaintObserver';

const layoutRendered = vi.fn();

/** The module as a new page load sees it: its wait is held once per page, by the module. */
async function freshModule() {
  vi.resetModules();
  return import('../src/lib/AfterFirstPaint');
}

/** The layout around the deferred parts, telling each time it renders. */
function layoutWith({ AfterFirstPaint }: Awaited<ReturnType<typeof freshModule>>) {
  return function Layout() {
    layoutRendered();
    return (
      <AfterFirstPaint fallback={<p>placeholder</p>}>
        <p>the player</p>
      </AfterFirstPaint>
    );
  };
}

/** Renders the layout in a new page load whose browser's paint timing is `observer`. */
async function renderLayoutWith(observer: unknown) {
  vi.stubGlobal('PerformanceObserver', observer);
  const Layout = layoutWith(await freshModule());
  render(<Layout />);
}

/** Lets timers and promises of a few milliseconds of real time run. */
const moment = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

describe('AfterFirstPaint', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    vi.useRealTimers();
    FakePaintObserver.reset();
    layoutRendered.mockClear();
  });

  it('shows its fallback until the page has loaded and the browser is idle, then its children', async () => {
    // A browser without paint timing: the page's load is all there is to wait for.
    await renderLayoutWith(undefined);
    expect(screen.getByText('placeholder')).toBeInTheDocument();
    expect(screen.queryByText('the player')).not.toBeInTheDocument();

    expect(await screen.findByText('the player')).toBeInTheDocument();
    expect(screen.queryByText('placeholder')).not.toBeInTheDocument();
    // Only the deferred part rendered again: the page around it did not.
    expect(layoutRendered).toHaveBeenCalledTimes(1);
  });

  it('waits for the first contentful paint where the browser reports paints', async () => {
    await renderLayoutWith(FakePaintObserver);
    // Loaded and idle, but not painted yet: still the fallback.
    await moment();
    expect(screen.getByText('placeholder')).toBeInTheDocument();

    act(() => FakePaintObserver.paint());
    expect(await screen.findByText('the player')).toBeInTheDocument();
    // Told of the paint, it observes no more.
    expect(FakePaintObserver.observers.size).toBe(0);
  });

  it('waits for the page to load after its paint, then for an idle moment', async () => {
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    const idleCallbacks: { callback: () => void; timeout: number | undefined }[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void, options?: IdleRequestOptions) => {
      idleCallbacks.push({ callback, timeout: options?.timeout });
      return idleCallbacks.length;
    });
    await renderLayoutWith(FakePaintObserver);
    act(() => FakePaintObserver.paint());
    await moment();
    // Painted, but the page's images and the like are still loading.
    expect(screen.getByText('placeholder')).toBeInTheDocument();
    expect(idleCallbacks).toEqual([]);

    readyState.mockReturnValue('complete');
    act(() => {
      window.dispatchEvent(new Event('load'));
    });
    // Loaded: the extras wait for the browser's next idle moment, a second at most.
    expect(idleCallbacks.map(({ timeout }) => timeout)).toEqual([1000]);
    expect(screen.getByText('placeholder')).toBeInTheDocument();
    act(() => idleCallbacks[0]?.callback());
    expect(await screen.findByText('the player')).toBeInTheDocument();
  });

  it('takes a paint that happened before it was asked', async () => {
    FakePaintObserver.paint();
    await renderLayoutWith(FakePaintObserver);
    // At once, not after the wait's limit.
    await moment();
    expect(screen.getByText('the player')).toBeInTheDocument();
  });

  it('shows its children at once when mounted after the wait is over (another page)', async () => {
    vi.stubGlobal('PerformanceObserver', FakePaintObserver);
    FakePaintObserver.paint();
    const module = await freshModule();
    await module.afterFirstPaint();
    const Layout = layoutWith(module);
    render(<Layout />);
    // In the first render: no frame shows the fallback first, nothing moves after.
    expect(screen.getByText('the player')).toBeInTheDocument();
  });

  it('stops waiting for a paint that does not come (a page opened in a background tab)', async () => {
    vi.useFakeTimers();
    await renderLayoutWith(FakePaintObserver);
    await act(() => vi.advanceTimersByTimeAsync(AFTER_FIRST_PAINT_MAX_WAIT_MS - 1));
    expect(screen.getByText('placeholder')).toBeInTheDocument();

    // The wait's limit, then the browser's idle moment.
    await act(() => vi.advanceTimersByTimeAsync(1 + 1000));
    expect(screen.getByText('the player')).toBeInTheDocument();
  });

  it('waits for a contentful paint, not the first paint of the background', async () => {
    await renderLayoutWith(FakePaintObserver);
    act(() => FakePaintObserver.paintBackground());
    await moment();
    expect(screen.getByText('placeholder')).toBeInTheDocument();
  });

  it.each([
    // It observes no paints and says so, and would never call back.
    ['observes no paints', ['resource']],
    // Chromium before 73: an observer without `supportedEntryTypes`.
    ['cannot say which entries it observes', undefined],
  ])('does not wait for paints in a browser that %s', async (_, entryTypes) => {
    class OlderBrowserObserver extends FakePaintObserver {
      static override readonly supportedEntryTypes = entryTypes as string[];
    }
    await renderLayoutWith(OlderBrowserObserver);
    // At once, not after the wait's limit.
    await moment();
    expect(screen.getByText('the player')).toBeInTheDocument();
  });

  it('stops waiting when the browser refuses to observe paints', async () => {
    class RefusingObserver extends FakePaintObserver {
      constructor() {
        super(() => undefined);
        throw new TypeError('paint is not observable here');
      }
    }
    await renderLayoutWith(RefusingObserver);
    await moment();
    expect(screen.getByText('the player')).toBeInTheDocument();
  });
});
