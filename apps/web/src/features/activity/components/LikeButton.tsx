import { LikesIcon } from '../../../components/ui/icons';
import { useNotificationStack } from '../../../lib/notifications';
import {
  LIKE_UID_MISSING_MESSAGE,
  useIsLikePending,
  useLikeMutation,
  type LikeListeners,
} from '../api/like';
import './likeButton.css';

interface LikeButtonProps extends LikeListeners {
  uid: string;
  liked: boolean;
  title: string;
}

/** The heart of a row: flips at once, disabled while the song's like call runs. */
export function LikeButton({ uid, liked, title, ...listeners }: LikeButtonProps) {
  const like = useLikeMutation(uid, listeners);
  const pending = useIsLikePending(uid);
  const notifications = useNotificationStack();

  function toggle() {
    if (uid === '') {
      notifications.push(LIKE_UID_MISSING_MESSAGE, { kind: 'error' });
      return;
    }
    like.mutate(!liked);
  }

  return (
    <button
      type="button"
      className={liked ? 'round-button like-button like-button--liked' : 'round-button like-button'}
      aria-label={`Like ${title}`}
      aria-pressed={liked}
      title={liked ? 'Unlike' : 'Like'}
      disabled={pending}
      aria-busy={pending}
      onClick={toggle}
    >
      <LikesIcon size={22} />
    </button>
  );
}
