import type { ActivityItem } from '@earshot/contract/activity';
import { PointerMenuItem } from '../../../components/ui/PointerMenu';
import { useIgnoreTrackMutation } from '../api/ignoreTrack';
import { useTrackIgnoreState, type TrackIgnoreState } from '../hooks/useTrackIgnoreState';

const LABELS: Record<TrackIgnoreState, string> = {
  unknown: 'Ignore track',
  'not-ignored': 'Ignore track',
  ignoring: 'Ignoring track…',
  ignored: 'Already ignored',
};

/** The track menu's "Ignore track" (spec section 4), or the disabled "Already ignored". */
export function IgnoreTrackMenuItem({ item }: { item: ActivityItem }) {
  const state = useTrackIgnoreState(item.track.uid);
  const ignore = useIgnoreTrackMutation(item);
  return (
    <PointerMenuItem disabled={state !== 'not-ignored'} onSelect={() => ignore.mutate()}>
      {LABELS[state]}
    </PointerMenuItem>
  );
}
