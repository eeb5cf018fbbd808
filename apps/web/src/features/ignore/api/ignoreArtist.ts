import { ignoreState, type IgnoredList, type IgnoreState } from '@earshot/contract/ignore';
import { requestJson } from '../../../lib/apiClient';
import { useIgnoreMutation } from './ignoreMutation';

/** `POST /api/ignore/artist/{id}`: ignores an artist in the viewer's stats and suggestions. */
export function postIgnoreArtist(artistId: string): Promise<IgnoreState> {
  return requestJson(`/api/ignore/artist/${encodeURIComponent(artistId)}`, ignoreState, {
    method: 'POST',
  });
}

export interface IgnoredArtistTarget {
  id: string;
  name: string;
}

/** The ignored list with `artist` added (when `state` says it is ignored) or taken out. */
function withArtistIgnoreState(
  list: IgnoredList,
  artist: IgnoredArtistTarget,
  state: IgnoreState,
): IgnoredList {
  const others = list.artists.filter((ignored) => ignored.artist_id !== artist.id);
  if (!state.ignored) return { ...list, artists: others };
  const ignored = {
    artist_id: artist.id,
    name: artist.name,
    is_global: state.is_global,
    reported: state.reported,
  };
  return { ...list, artists: [ignored, ...others] };
}

/** Ignores an artist for the viewer; a failure notification names the artist. */
export function useIgnoreArtistMutation(
  artist: IgnoredArtistTarget,
  onIgnored?: () => Promise<unknown>,
) {
  return useIgnoreMutation({
    mutationKey: ['ignore', 'artist', artist.id],
    post: () => postIgnoreArtist(artist.id),
    listWith: (list, state) => withArtistIgnoreState(list, artist, state),
    failureName: artist.name,
    onIgnored,
  });
}
