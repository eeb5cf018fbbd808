import { ignoreState, type IgnoredList, type IgnoreState } from '@earshot/contract/ignore';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '../../../lib/apiClient';
import { useNotificationStack } from '../../../lib/notifications';
import type { IgnoredArtistTarget } from './ignoreArtist';
import { ignoredListQueryKey } from './ignoredList';

/** `DELETE /api/ignore/artist/{id}`: counts the artist in the viewer's stats again. */
export function deleteIgnoreArtist(artistId: string): Promise<IgnoreState> {
  return requestJson(`/api/ignore/artist/${encodeURIComponent(artistId)}`, ignoreState, {
    method: 'DELETE',
  });
}

/** Adds an ignored artist back; the ignored list drops it at once and is fetched again. */
export function useUnignoreArtistMutation(
  artist: IgnoredArtistTarget,
  onChanged?: () => Promise<unknown>,
) {
  const queryClient = useQueryClient();
  const notifications = useNotificationStack();
  return useMutation({
    mutationKey: ['unignore', 'artist', artist.id],
    mutationFn: () => deleteIgnoreArtist(artist.id),
    onSuccess: async (state) => {
      if (!state.ignored) {
        queryClient.setQueryData<IgnoredList>(ignoredListQueryKey, (list) =>
          list ? { ...list, artists: list.artists.filter((a) => a.artist_id !== artist.id) } : list,
        );
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ignoredListQueryKey }),
        onChanged?.(),
      ]);
    },
    onError: (error) =>
      notifications.push(`Failed to add back ${artist.name}: ${error.message}`, { kind: 'error' }),
  });
}
