import { useLiveStatus } from '../../../lib/live';

/** Said quietly while live updates are lost and tried again; the page itself still works. */
export function LiveStatusNote() {
  const status = useLiveStatus();
  return (
    <p className="live-status" role="status">
      {status === 'retrying' ? 'Live updates paused, reconnecting…' : ''}
    </p>
  );
}
