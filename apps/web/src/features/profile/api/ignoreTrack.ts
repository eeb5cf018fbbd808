import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWithoutContent } from '../../../lib/apiClient';
import { profileQueryKeys } from './publicProfile';

/** Ignores a song (by uid) in the viewer's stats and suggestions. */
export function postIgnoreTrack(uid: string): Promise<void> {
  return requestWithoutContent(`/api/ignore/track/${encodeURIComponent(uid)}`, {
    method: 'POST',
  });
}

/** Profiles are refreshed afterwards: ignored songs no longer count in the viewer's stats. */
export function useIgnoreTrackMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postIgnoreTrack,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryKeys.all }),
  });
}
