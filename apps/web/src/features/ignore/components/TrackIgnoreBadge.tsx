import { useListedTrackIgnoreState } from './TrackIgnoreStates';
import './ignore.css';

/** "Ignoring…" while the call runs, then "Ignored", next to a track of a list (inside `TrackIgnoreStates`). */
export function TrackIgnoreBadge({ uid }: { uid: string }) {
  const state = useListedTrackIgnoreState(uid);
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
