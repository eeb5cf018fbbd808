import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { FriendButton } from '../../features/friends/components/FriendButton';
import { profileQueryKeys } from '../../features/profile/api/publicProfile';
import { PublicProfilePage } from '../../features/profile/components/PublicProfilePage';

/** `/user/{username or id}`: the public profile with the friendship feature's button. */
export function ProfileRoute() {
  const { handle = '' } = useParams();
  const queryClient = useQueryClient();

  return (
    <PublicProfilePage
      handle={handle}
      renderFriendButton={({ username, status, fetchedAt }) => (
        <FriendButton
          username={username}
          knownStatus={status}
          knownAt={fetchedAt}
          // A new friendship changes what the profile shows (highlights, taste match).
          onChange={() => void queryClient.invalidateQueries({ queryKey: profileQueryKeys.all })}
        />
      )}
    />
  );
}
