import { likeResponse, type LikeResponse } from '@earshot/contract/activity';
import {
  useIsMutating,
  useMutation,
  useMutationState,
  useQueryClient,
  type Mutation,
} from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { requestJson } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';
import { setLikedInActivityFeeds } from './activityFeed';

/** docs/product.md §5: liking needs the song's uid. */
export const LIKE_UID_MISSING_MESSAGE = 'Cannot like track: uid not available';

/** `POST /api/like`: likes or unlikes a song; the answer is its final state. */
export function postLike(uid: string, liked: boolean): Promise<LikeResponse> {
  return requestJson('/api/like', likeResponse, { method: 'POST', body: { uid, liked } });
}

/** Every like call has this key; the song is its variables' `uid`. */
const likeMutationKey = ['like'] as const;

interface LikeVariables {
  uid: string;
  liked: boolean;
}

function likeVariables(mutation: Mutation): LikeVariables {
  return mutation.state.variables as LikeVariables;
}

function isLikeOf(uid: string) {
  return (mutation: Mutation) => likeVariables(mutation).uid === uid;
}

/**
 * The like toggle of songs (docs/product.md §4): every row of the song flips at once, the call
 * runs, and on failure the rows flip back and the server's message shows as an error
 * notification. The server's answer is applied again on success, over any page that arrived
 * meanwhile. Pages that show the song elsewhere (composed in app/) follow through `listeners`.
 * One toggle serves a whole list (decision 0041): `toggle(uid, liked)`.
 */
export interface LikeListeners {
  /** The song's like as shown: at once, then the server's answer, or back on failure. */
  onLikedChange?: (liked: boolean) => void;
  /** The call ended, with or without success. */
  onSettled?: () => void;
}

export function useLikeToggle({ onLikedChange, onSettled }: LikeListeners = {}) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  const show = (uid: string, liked: boolean) => {
    setLikedInActivityFeeds(queryClient, uid, liked);
    onLikedChange?.(liked);
  };
  const { mutate } = useMutation({
    mutationKey: likeMutationKey,
    mutationFn: ({ uid, liked }: LikeVariables) => postLike(uid, liked),
    onMutate: ({ uid, liked }) => show(uid, liked),
    onSuccess: (answer, { uid }) => show(uid, answer.liked),
    onError: (error, { uid, liked }) => {
      show(uid, !liked);
      notifications.push(error.message, { kind: 'error' });
    },
    onSettled,
  });
  return useCallback(
    (uid: string, liked: boolean) => {
      if (uid === '') notifications.push(LIKE_UID_MISSING_MESSAGE, { kind: 'error' });
      else mutate({ uid, liked });
    },
    [mutate, notifications],
  );
}

/** Whether a like call for the song is running (from any row): its state is not known yet. */
export function useIsLikePending(uid: string): boolean {
  return useIsMutating({ mutationKey: likeMutationKey, predicate: isLikeOf(uid) }) > 0;
}

/** The songs (uids) whose like call is running: read once for a whole list (decision 0041). */
export function useLikePendingUids(): ReadonlySet<string> {
  const uids = useMutationState({
    filters: { mutationKey: likeMutationKey, status: 'pending' },
    select: (mutation) => likeVariables(mutation).uid,
  });
  return useMemo(() => new Set(uids), [uids]);
}

/**
 * The song's like as the latest like call left it (its wish while it runs, its answer after),
 * or undefined before any: lets pages outside the feeds follow a like made anywhere.
 */
export function useLatestLikeState(uid: string): boolean | undefined {
  const states = useMutationState({
    filters: { mutationKey: likeMutationKey, predicate: isLikeOf(uid) },
    select: (mutation) => mutation.state,
  });
  const latest = states.at(-1);
  if (!latest) return undefined;
  const { liked } = latest.variables as LikeVariables;
  if (latest.status === 'pending') return liked;
  if (latest.status === 'success') return (latest.data as LikeResponse).liked;
  // A failed call leaves the song as it was before it.
  if (latest.status === 'error') return !liked;
  return undefined;
}
