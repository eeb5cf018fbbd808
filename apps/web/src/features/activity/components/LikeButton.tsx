import { LikesIcon } from '../../../components/ui/icons';
import { useIsLikePending, useLikeToggle, type LikeListeners } from '../api/like';
import './likeButton.css';

interface LikeHeartProps {
  liked: boolean;
  /** A like call for the song is running: its state is not known yet. */
  pending: boolean;
  title: string;
  onToggle: () => void;
}

/** The heart itself: its list holds the like toggle and the running calls (decision 0041). */
export function LikeHeart({ liked, pending, title, onToggle }: LikeHeartProps) {
  return (
    <button
      type="button"
      className={liked ? 'round-button like-button like-button--liked' : 'round-button like-button'}
      aria-label={`Like ${title}`}
      aria-pressed={liked}
      title={liked ? 'Unlike' : 'Like'}
      disabled={pending}
      aria-busy={pending}
      onClick={onToggle}
    >
      <LikesIcon size={22} />
    </button>
  );
}

interface LikeButtonProps extends LikeListeners {
  uid: string;
  liked: boolean;
  title: string;
}

/** The heart of a song shown on its own: flips at once, disabled while the song's call runs. */
export function LikeButton({ uid, liked, title, ...listeners }: LikeButtonProps) {
  const toggle = useLikeToggle(listeners);
  const pending = useIsLikePending(uid);
  return (
    <LikeHeart liked={liked} pending={pending} title={title} onToggle={() => toggle(uid, !liked)} />
  );
}
