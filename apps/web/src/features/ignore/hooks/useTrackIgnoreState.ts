import { useIgnoredTrackUidsQuery } from '../api/ignoredList';
import { useIsIgnoringTrack } from '../api/ignoreTrack';

/** `unknown` until the ignored list has loaded (or when the track has no uid). */
export type TrackIgnoreState = 'unknown' | 'not-ignored' | 'ignoring' | 'ignored';

/** Whether the viewer ignores a song (by uid), from `GET /api/ignore` and running calls. */
export function useTrackIgnoreState(uid: string): TrackIgnoreState {
  const ignoredUids = useIgnoredTrackUidsQuery();
  const ignoring = useIsIgnoringTrack(uid);
  if (uid === '') return 'unknown';
  if (ignoring) return 'ignoring';
  if (ignoredUids.data?.has(uid)) return 'ignored';
  // A failed list leaves the action available: ignoring twice is harmless.
  return ignoredUids.isPending ? 'unknown' : 'not-ignored';
}
