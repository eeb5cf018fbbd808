import { useTrackIgnoreState } from '../hooks/useTrackIgnoreState';
import './ignore.css';

/** "Ignoring…" while the call runs, then "Ignored", next to a track of a list. */
export function TrackIgnoreBadge({ uid }: { uid: string }) {
  const state = useTrackIgnoreState(uid);
  if (state === 'ignoring') {
    return (
      <span className="ignore-badge ignore-badge--pending" role="status">
        Ignoring…
      </span>
    );
  }
  if (state === 'ignored') return <span className="ignore-badge">Ignored</span>;
  return null;
}
