import { likeResponse, type LikeResponse } from '@earshot/contract/activity';
import {
  useIsMutating,
  useMutation,
  useMutationState,
  useQueryClient,
} from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';
import { setLikedInActivityFeeds } from './activityFeed';

/** docs/product.md §5: liking needs the song's uid. */
export const LIKE_UID_MISSING_MESSAGE = 'Cannot like track: uid not available';

/** `POST /api/like`: likes or unlikes a song; the answer is its final state. */
export function postLike(uid: string, liked: boolean): Promise<LikeResponse> {
  return requestJson('/api/like', likeResponse, { method: 'POST', body: { uid, liked } });
}

function likeMutationKey(uid: string) {
  return ['like', uid] as const;
}

/**
 * The like toggle of one song (docs/product.md §4): every row of it flips at once, the call runs,
 * and on failure the rows flip back and the server's message shows as an error notification.
 * The server's answer is applied again on success, over any page that arrived meanwhile.
 * Pages that show the song elsewhere (composed in app/) follow through `listeners`.
 */
export interface LikeListeners {
  /** The song's like as shown: at once, then the server's answer, or back on failure. */
  onLikedChange?: (liked: boolean) => void;
  /** The call ended, with or without success. */
  onSettled?: () => void;
}

export function useLikeMutation(uid: string, { onLikedChange, onSettled }: LikeListeners = {}) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  const show = (liked: boolean) => {
    setLikedInActivityFeeds(queryClient, uid, liked);
    onLikedChange?.(liked);
  };
  return useMutation({
    mutationKey: likeMutationKey(uid),
    mutationFn: (liked: boolean) => postLike(uid, liked),
    onMutate: (liked) => show(liked),
    onSuccess: (answer) => show(answer.liked),
    onError: (error, liked) => {
      show(!liked);
      notifications.push(error.message, { kind: 'error' });
    },
    onSettled,
  });
}

/** Whether a like call for the song is running (from any row): its state is not known yet. */
export function useIsLikePending(uid: string): boolean {
  return useIsMutating({ mutationKey: likeMutationKey(uid) }) > 0;
}

/**
 * The song's like as the latest like call left it (its wish while it runs, its answer after),
 * or undefined before any: lets pages outside the feeds follow a like made anywhere.
 */
export function useLatestLikeState(uid: string): boolean | undefined {
  const states = useMutationState({
    filters: { mutationKey: likeMutationKey(uid) },
    select: (mutation) => mutation.state,
  });
  const latest = states.at(-1);
  if (!latest) return undefined;
  if (latest.status === 'pending') return latest.variables as boolean;
  if (latest.status === 'success') return (latest.data as LikeResponse).liked;
  // A failed call leaves the song as it was before it.
  if (latest.status === 'error') return !(latest.variables as boolean);
  return undefined;
}
