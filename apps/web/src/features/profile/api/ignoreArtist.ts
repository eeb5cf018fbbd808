import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWithoutContent } from '../../../lib/apiClient';
import { profileQueryKeys } from './publicProfile';

/** Ignores an artist in the viewer's stats and suggestions. */
export function postIgnoreArtist(artistId: string): Promise<void> {
  return requestWithoutContent(`/api/ignore/artist/${encodeURIComponent(artistId)}`, {
    method: 'POST',
  });
}

/** Profiles are refreshed afterwards: ignored artists no longer count in the viewer's stats. */
export function useIgnoreArtistMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postIgnoreArtist,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryKeys.all }),
  });
}
