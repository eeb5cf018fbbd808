import type { ActivityItem } from '@earshot/contract/activity';
import { ignoreState, type IgnoredList, type IgnoreState } from '@earshot/contract/ignore';
import type { TrackSummary } from '@earshot/contract/track';
import { useIsMutating, useMutationState } from '@tanstack/react-query';
import { useMemo } from 'react';
import { requestJson } from '../../../lib/apiClient';
import { useIgnoreMutation } from './ignoreMutation';

/** `POST /api/ignore/track/{uid}`: ignores a song in the viewer's stats and suggestions. */
export function postIgnoreTrack(uid: string): Promise<IgnoreState> {
  return requestJson(`/api/ignore/track/${encodeURIComponent(uid)}`, ignoreState, {
    method: 'POST',
  });
}

function ignoreTrackMutationKey(uid: string) {
  return ['ignore', 'track', uid] as const;
}

const ignoreAnyTrackMutationKey = ['ignore', 'track'] as const;

/** Whose ignored list it is: its track entries name them as their user. */
export type IgnoredListOwner = ActivityItem['user'];

/** The ignored list with `track` added (when `state` says it is ignored) or taken out. */
function withTrackIgnoreState(
  list: IgnoredList,
  track: TrackSummary,
  owner: IgnoredListOwner,
  state: IgnoreState,
): IgnoredList {
  const others = list.tracks.filter((ignored) => ignored.track.uid !== track.uid);
  if (!state.ignored) return { ...list, tracks: others };
  // The entry as `GET /api/ignore` lists it.
  const ignored: ActivityItem = {
    user: owner,
    track,
    liked: false,
    date: new Date().toISOString(),
    play_count: 0,
    reason: null,
    context_uri: null,
    is_global: state.is_global,
    reported: state.reported,
  };
  return { ...list, tracks: [ignored, ...others] };
}

export interface IgnoreTrackOptions {
  track: TrackSummary;
  viewer: IgnoredListOwner;
  /** How a failure notification names the track: "track", or its title. */
  failureName: string;
  onIgnored?: () => Promise<unknown>;
}

/** Ignores a song (by its uid) for the viewer. */
export function useIgnoreTrackMutation({
  track,
  viewer,
  failureName,
  onIgnored,
}: IgnoreTrackOptions) {
  return useIgnoreMutation({
    mutationKey: ignoreTrackMutationKey(track.uid),
    post: () => postIgnoreTrack(track.uid),
    listWith: (list, state) => withTrackIgnoreState(list, track, viewer, state),
    failureName,
    onIgnored,
  });
}

/** Whether a call to ignore the song is running, from wherever it was started. */
export function useIsIgnoringTrack(uid: string): boolean {
  return useIsMutating({ mutationKey: ignoreTrackMutationKey(uid) }) > 0;
}

/** The songs (uids) a call to ignore is running for: read once for a whole list. */
export function useIgnoringTrackUids(): ReadonlySet<string> {
  const uids = useMutationState({
    filters: { mutationKey: ignoreAnyTrackMutationKey, status: 'pending' },
    select: (mutation) => String(mutation.options.mutationKey?.[2]),
  });
  return useMemo(() => new Set(uids), [uids]);
}
