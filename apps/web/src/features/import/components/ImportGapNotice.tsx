import type { ImportStatus } from '@earshot/contract/import';
import { AbsoluteDate } from '../../../components/ui/AbsoluteDate';

/**
 * Spotify's recently-played remembers only the last 50 plays: when a sync found all 50 new, older
 * plays may have gone by unseen. Shown until an import that finished after that sync filled them.
 */
export function ImportGapNotice({ status }: { status: ImportStatus }) {
  const gapAt = status.recent_plays_gap_at;
  const lastImport = status.last_full_history_sync;
  if (gapAt === null || (lastImport !== null && lastImport > gapAt)) return null;
  return (
    <p className="import-notice" role="status">
      On <AbsoluteDate iso={gapAt} /> you played more than Spotify remembers between two syncs (its
      last 50 plays), so some plays may be missing. Import your history to fill the gap.
    </p>
  );
}
