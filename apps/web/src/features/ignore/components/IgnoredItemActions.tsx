import { useGlobalUnignoreMutation } from '../api/globalUnignore';
import type { IgnoreTarget } from '../api/ignoreTarget';
import { useReportMutation } from '../api/reportIgnored';
import { useUnignoreMutation } from '../api/unignore';

interface IgnoredItemActionsProps {
  target: IgnoreTarget;
  isGlobal: boolean;
  reported: boolean;
  isAdmin: boolean;
}

/**
 * An ignored item's buttons: Unignore; Report while it is neither global nor reported (it then
 * stays marked reported); Global Unignore for admins on global items.
 */
export function IgnoredItemActions({
  target,
  isGlobal,
  reported,
  isAdmin,
}: IgnoredItemActionsProps) {
  const unignore = useUnignoreMutation(target);
  const report = useReportMutation(target);
  const globalUnignore = useGlobalUnignoreMutation(target);
  const busy = unignore.isPending || report.isPending || globalUnignore.isPending;
  return (
    <div className="ignored-row__actions">
      <button
        type="button"
        className="button button--secondary ignore-button"
        aria-label={`Unignore ${target.name}`}
        disabled={busy}
        onClick={() => unignore.mutate()}
      >
        {unignore.isPending ? 'Unignoring…' : 'Unignore'}
      </button>
      {!isGlobal && !reported && (
        <button
          type="button"
          className="button button--secondary ignore-button"
          aria-label={`Report ${target.name}`}
          disabled={busy}
          onClick={() => report.mutate()}
        >
          {report.isPending ? 'Reporting…' : 'Report'}
        </button>
      )}
      {isAdmin && isGlobal && (
        <button
          type="button"
          className="button button--secondary ignore-button"
          aria-label={`Global Unignore ${target.name}`}
          disabled={busy}
          onClick={() => globalUnignore.mutate()}
        >
          {globalUnignore.isPending ? 'Unignoring…' : 'Global Unignore'}
        </button>
      )}
    </div>
  );
}
