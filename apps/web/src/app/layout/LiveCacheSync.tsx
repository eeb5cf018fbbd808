import { useQueryClient } from '@tanstack/react-query';
import {
  activityQueryKeys,
  setLikedInActivityFeeds,
} from '../../features/activity/api/activityFeed';
import { friendshipQueryKeys } from '../../features/friends/api/friendshipQueryKeys';
import { profileQueryKeys } from '../../features/profile/api/publicProfile';
import { useLiveConnection, useLiveEvent } from '../../lib/live';

/**
 * Opens the viewer's live stream and keeps the cached answers of other features in step with it:
 * the bell and friends lists on friendship events, the viewer's own likes made elsewhere, and
 * every feed after a gap the stream could not replay. (Feeds put new items in themselves.)
 */
export function LiveCacheSync({ viewerId }: { viewerId: string }) {
  const queryClient = useQueryClient();
  useLiveConnection(true);
  useLiveEvent('friendship', () => {
    void queryClient.invalidateQueries({ queryKey: friendshipQueryKeys.all });
    void queryClient.invalidateQueries({ queryKey: profileQueryKeys.all });
  });
  useLiveEvent('like', (like) => {
    if (like.user.id === viewerId)
      setLikedInActivityFeeds(queryClient, like.track.uid, !like.unliked);
  });
  useLiveEvent('ready', ({ missed }) => {
    if (missed) void queryClient.invalidateQueries({ queryKey: activityQueryKeys.all });
  });
  return null;
}
