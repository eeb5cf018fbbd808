import type { TrackSummary } from '@earshot/contract/track';
import { useLatestLikeState } from '../../features/activity/api/like';
import { LikeButton } from '../../features/activity/components/LikeButton';

/**
 * The activity feature's like button on the catalogue pages: it starts from the page's answer
 * and follows every like of the song made since, wherever it was made.
 */
export function CatalogueLike({ track, liked }: { track: TrackSummary; liked: boolean }) {
  const latest = useLatestLikeState(track.uid);
  return <LikeButton uid={track.uid} liked={latest ?? liked} title={track.title} />;
}

export const renderCatalogueLike = (track: TrackSummary, liked: boolean) => (
  <CatalogueLike track={track} liked={liked} />
);
