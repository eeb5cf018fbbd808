import { useIgnoredTrackUidsQuery } from '../api/ignoredList';
import { useIsIgnoringTrack } from '../api/ignoreTrack';

/** `unknown` until the ignored list has loaded (or when the track has no uid). */
export type TrackIgnoreState = 'unknown' | 'not-ignored' | 'ignoring' | 'ignored';

/** What a song's state is read from. */
export interface TrackIgnoreFacts {
  /** The ignored list's songs; undefined before it loads or when it failed. */
  ignoredUids: ReadonlySet<string> | undefined;
  /** The ignored list has not answered yet. */
  listPending: boolean;
  /** A call to ignore the song is running. */
  ignoring: boolean;
}

export function trackIgnoreState(
  uid: string,
  { ignoredUids, listPending, ignoring }: TrackIgnoreFacts,
): TrackIgnoreState {
  if (uid === '') return 'unknown';
  if (ignoring) return 'ignoring';
  if (ignoredUids?.has(uid)) return 'ignored';
  // A failed list leaves the action available: ignoring twice is harmless.
  return listPending ? 'unknown' : 'not-ignored';
}

/** Whether the viewer ignores a song (by uid), from `GET /api/ignore` and running calls. */
export function useTrackIgnoreState(uid: string): TrackIgnoreState {
  const ignoredUids = useIgnoredTrackUidsQuery();
  const ignoring = useIsIgnoringTrack(uid);
  return trackIgnoreState(uid, {
    ignoredUids: ignoredUids.data,
    listPending: ignoredUids.isPending,
    ignoring,
  });
}
