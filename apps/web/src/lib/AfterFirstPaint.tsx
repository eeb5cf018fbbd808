import { useEffect, useState, type ReactNode } from 'react';
import { AFTER_FIRST_PAINT_MAX_WAIT_MS } from './constants';

/** Resolves once the browser reports the page's first contentful paint (or gives up waiting). */
function firstContentfulPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (
      typeof PerformanceObserver === 'undefined' ||
      !PerformanceObserver.supportedEntryTypes?.includes('paint')
    ) {
      resolve();
      return;
    }
    let observer: PerformanceObserver | undefined;
    const done = () => {
      observer?.disconnect();
      clearTimeout(timer);
      resolve();
    };
    // A page opened in a background tab paints only once shown: the extras do not wait for that.
    const timer = setTimeout(done, AFTER_FIRST_PAINT_MAX_WAIT_MS);
    try {
      observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length > 0) done();
      });
      // `buffered`: a paint that happened before this call is reported too.
      observer.observe({ type: 'paint', buffered: true });
    } catch {
      // A browser that lists paint timing but refuses to observe it: wait no longer.
      done();
    }
  });
}

/** Resolves once the page has loaded and the browser then has a moment to spare. */
function loadedAndIdle(): Promise<void> {
  return new Promise((resolve) => {
    const idle = () => {
      if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 1000 });
      else setTimeout(resolve, 0);
    };
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
}

let paintedLoadedAndIdle: Promise<void> | undefined;
/** Whether `paintedLoadedAndIdle` has resolved: later mounts render their extras at once. */
let pagePainted = false;

/**
 * Resolves once the page has painted its first content and loaded, and the browser then has a
 * moment to spare: when what the first paint does not need may ask the network and the main
 * thread for their share (decision 0048). The page's `load` alone is not enough: the feed's code
 * and answers are fetched with the document, so `load` fires before the page has painted.
 */
export function afterFirstPaint(): Promise<void> {
  return (paintedLoadedAndIdle ??= firstContentfulPaint()
    .then(loadedAndIdle)
    .then(() => {
      pagePainted = true;
    }));
}

/** False until `afterFirstPaint()` has resolved, then true: for queries a first paint does not need. */
export function usePagePainted(): boolean {
  const [painted, setPainted] = useState(pagePainted);
  useEffect(() => {
    void afterFirstPaint().then(() => setPainted(true));
  }, []);
  return painted;
}

/**
 * Its children once the page has painted and loaded and the browser is idle, `fallback` until
 * then: for parts the first paint does not need (decisions 0034, 0048), so their code and
 * requests wait behind the page's own. Mounted later (another page), it shows them at once. The
 * wait is held here, not in the layout around it, so that when it ends only these parts render,
 * not the whole page again.
 */
export function AfterFirstPaint({
  children,
  fallback = null,
}: {
  children: ReactNode;
  fallback?: ReactNode;
}) {
  return usePagePainted() ? children : fallback;
}
