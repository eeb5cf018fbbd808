import type { TrackSummary } from '@earshot/contract/track';
import { PointerMenuItem } from '../../../components/ui/PointerMenu';
import { useIgnoreTrackMutation, type IgnoredListOwner } from '../api/ignoreTrack';
import { useTrackIgnoreState, type TrackIgnoreState } from '../hooks/useTrackIgnoreState';

const LABELS: Record<TrackIgnoreState, string> = {
  unknown: 'Ignore track',
  'not-ignored': 'Ignore track',
  ignoring: 'Ignoring track…',
  ignored: 'Already ignored',
};

interface IgnoreTrackMenuItemProps {
  track: TrackSummary;
  viewer: IgnoredListOwner;
}

/** The track menu's "Ignore track" (docs/product.md §4), or the disabled "Already ignored". */
export function IgnoreTrackMenuItem({ track, viewer }: IgnoreTrackMenuItemProps) {
  const state = useTrackIgnoreState(track.uid);
  const ignore = useIgnoreTrackMutation({ track, viewer, failureName: 'track' });
  return (
    <PointerMenuItem disabled={state !== 'not-ignored'} onSelect={() => ignore.mutate()}>
      {LABELS[state]}
    </PointerMenuItem>
  );
}
