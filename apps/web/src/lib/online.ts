import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/**
 * Whether the browser has a network, as TanStack Query sees it: queries wait while it has none,
 * and writes are refused (`apiClient.ts`). Query's own listener starts by assuming a network;
 * this one also reads `navigator.onLine` at once, so an app opened offline knows it from the
 * first render.
 */
export function followBrowserOnlineState(): void {
  onlineManager.setEventListener((setOnline) => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  });
}

const isOnlineNow = () => onlineManager.isOnline();

export function useIsOnline(): boolean {
  return useSyncExternalStore((onChange) => onlineManager.subscribe(onChange), isOnlineNow);
}
