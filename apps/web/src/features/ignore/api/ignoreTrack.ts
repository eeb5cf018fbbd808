import type { ActivityItem } from '@earshot/contract/activity';
import { ignoreState, type IgnoredList, type IgnoreState } from '@earshot/contract/ignore';
import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';
import { ignoredListQueryKey } from './ignoredList';

/** `POST /api/ignore/track/{uid}`: ignores a song in the viewer's stats and suggestions. */
export function postIgnoreTrack(uid: string): Promise<IgnoreState> {
  return requestJson(`/api/ignore/track/${encodeURIComponent(uid)}`, ignoreState, {
    method: 'POST',
  });
}

function ignoreTrackMutationKey(uid: string) {
  return ['ignore', 'track', uid] as const;
}

/** The ignored list with `item` added (when `state` says it is ignored) or taken out. */
function withTrackIgnoreState(list: IgnoredList, item: ActivityItem, state: IgnoreState) {
  const others = list.tracks.filter((ignored) => ignored.track.uid !== item.track.uid);
  if (!state.ignored) return { ...list, tracks: others };
  const ignored: ActivityItem = {
    ...item,
    date: new Date().toISOString(),
    reported: state.reported,
    is_global: state.is_global,
  };
  return { ...list, tracks: [ignored, ...others] };
}

/**
 * Ignores the song of an activity row. The ignored list takes the answer at once and is then
 * fetched again; a failure shows as an error notification. The callbacks live on the mutation,
 * so they still run when the menu that started it has closed.
 */
export function useIgnoreTrackMutation(item: ActivityItem) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  const { uid } = item.track;
  return useMutation({
    mutationKey: ignoreTrackMutationKey(uid),
    mutationFn: () => postIgnoreTrack(uid),
    onSuccess: async (state) => {
      queryClient.setQueryData<IgnoredList>(ignoredListQueryKey, (list) =>
        list ? withTrackIgnoreState(list, item, state) : list,
      );
      await queryClient.invalidateQueries({ queryKey: ignoredListQueryKey });
    },
    onError: (error) =>
      notifications.push(`Failed to ignore track: ${error.message}`, { kind: 'error' }),
  });
}

/** Whether a call to ignore the song is running, from wherever it was started. */
export function useIsIgnoringTrack(uid: string): boolean {
  return useIsMutating({ mutationKey: ignoreTrackMutationKey(uid) }) > 0;
}
