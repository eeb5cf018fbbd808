import { useEffect, useState, type ReactNode } from 'react';

let loadedAndIdle: Promise<void> | undefined;

/** Resolves once the page has loaded and the browser then has a moment to spare. */
function whenLoadedAndIdle(): Promise<void> {
  return (loadedAndIdle ??= new Promise<void>((resolve) => {
    const idle = () => {
      if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 1000 });
      else setTimeout(resolve, 0);
    };
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  }));
}

/**
 * Its children once the page has loaded and the browser is idle, `fallback` until then: for
 * parts the first paint does not need (decision 0034), so their code and requests wait behind
 * the page's own. The wait is held here, not in the layout around it, so that when it ends only
 * these parts render, not the whole page again.
 */
export function AfterLoad({
  children,
  fallback = null,
}: {
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let mounted = true;
    void whenLoadedAndIdle().then(() => {
      if (mounted) setReady(true);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return ready ? children : fallback;
}
