import { useIsOnline } from '../../lib/online';

export const OFFLINE_BANNER_TEXT =
  'You are offline. Pages you saw before are shown as saved, not live, and changes cannot be made until you are back online.';

/**
 * Says that the app is offline for as long as it is (docs/product.md §2, Global behaviour). The
 * live region stays in place, empty while online, so its text is announced when it appears.
 */
export function OfflineBanner() {
  const online = useIsOnline();
  return (
    <div className="offline-banner" aria-live="polite">
      {!online && <p className="offline-banner__text">{OFFLINE_BANNER_TEXT}</p>}
    </div>
  );
}
