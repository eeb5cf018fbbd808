import { useIsOnline } from '../../lib/online';
import { RelativeTime } from './RelativeTime';

/**
 * Offline, marks what a page shows as the copy saved at `savedAt` (ms), not live data
 * (docs/product.md §2, Global behaviour). Online it says nothing.
 */
export function SavedCopyNote({ savedAt }: { savedAt: number }) {
  const online = useIsOnline();
  if (online || savedAt === 0) return null;
  return (
    <p className="saved-copy-note">
      Saved copy from <RelativeTime iso={new Date(savedAt).toISOString()} />, not live.
    </p>
  );
}

/** In place of a page's spinner while offline: the page has no saved copy to show. */
export function NotSavedOffline() {
  return (
    <p className="saved-copy-note saved-copy-note--missing" role="status">
      This page was not saved for offline use. It loads when you are back online.
    </p>
  );
}
