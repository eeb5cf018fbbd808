import { useEffect, useState } from 'react';

let loadedAndIdle: Promise<void> | undefined;

/** Resolves once the page has loaded and the browser then has a moment to spare. */
export function whenLoadedAndIdle(): Promise<void> {
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
 * False until the page has loaded and the browser is idle: for parts the first paint does not
 * need (decision 0034), so their code and requests wait behind the page's own.
 */
export function useLoadedAndIdle(): boolean {
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
  return ready;
}
