import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { useIgnoredTrackUidsQuery } from '../api/ignoredList';
import { useIgnoringTrackUids } from '../api/ignoreTrack';
import { trackIgnoreState, type TrackIgnoreState } from '../hooks/useTrackIgnoreState';

const TrackIgnoreStatesContext = createContext<((uid: string) => TrackIgnoreState) | null>(null);

/**
 * The ignore state of every song of a list, read once for the list (decision 0041): its badges
 * read it from here instead of each holding a query and a mutation observer.
 */
export function TrackIgnoreStates({ children }: { children: ReactNode }) {
  const { data: ignoredUids, isPending: listPending } = useIgnoredTrackUidsQuery();
  const ignoringUids = useIgnoringTrackUids();
  // Changes (and so re-renders the badges) only when one of these does.
  const stateOf = useCallback(
    (uid: string) =>
      trackIgnoreState(uid, { ignoredUids, listPending, ignoring: ignoringUids.has(uid) }),
    [ignoredUids, listPending, ignoringUids],
  );
  return (
    <TrackIgnoreStatesContext.Provider value={stateOf}>
      {children}
    </TrackIgnoreStatesContext.Provider>
  );
}

/** The song's ignore state, inside `TrackIgnoreStates`. */
export function useListedTrackIgnoreState(uid: string): TrackIgnoreState {
  const stateOf = useContext(TrackIgnoreStatesContext);
  if (!stateOf) throw new Error('useListedTrackIgnoreState must be used inside TrackIgnoreStates');
  return stateOf(uid);
}
