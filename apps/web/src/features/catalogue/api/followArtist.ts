import {
  artistFollowState,
  type ArtistDetail,
  type ArtistFollowState,
} from '@earshot/contract/catalogue';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';
import { catalogueQueryKeys } from './catalogueQueryKeys';

/** `PUT` (follow) or `DELETE` (unfollow) `/api/spotify/follow/artist/{id}`: the final state. */
export function putArtistFollowed(id: string, followed: boolean): Promise<ArtistFollowState> {
  return requestJson(`/api/spotify/follow/artist/${encodeURIComponent(id)}`, artistFollowState, {
    method: followed ? 'PUT' : 'DELETE',
  });
}

/** Follows or unfollows the artist; the page takes the answer, a failure shows why. */
export function useFollowArtistMutation(artist: { id: string; name: string }) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  return useMutation({
    mutationKey: ['follow', 'artist', artist.id],
    mutationFn: (followed: boolean) => putArtistFollowed(artist.id, followed),
    onSuccess: (state) =>
      queryClient.setQueryData<ArtistDetail>(catalogueQueryKeys.artist(artist.id), (detail) =>
        detail ? { ...detail, is_followed: state.is_followed } : detail,
      ),
    onError: (error, followed) =>
      notifications.push(
        `Failed to ${followed ? 'follow' : 'unfollow'} ${artist.name}: ${error.message}`,
        { kind: 'error' },
      ),
  });
}
