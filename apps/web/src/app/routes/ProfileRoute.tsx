import type { CurrentUser } from '@earshot/contract/user';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useSession } from '../../features/account/hooks/useSession';
import { FriendButton } from '../../features/friends/components/FriendButton';
import {
  IgnoreArtistButton,
  IgnoreTrackButton,
} from '../../features/ignore/components/IgnoreButtons';
import { profileQueryKeys } from '../../features/profile/api/publicProfile';
import { PublicProfilePage } from '../../features/profile/components/PublicProfilePage';

/**
 * `/user/{username or id}`: the public profile with the friendship feature's button and the
 * ignore feature's buttons on the highlights (only logged-in viewers can ignore).
 */
export function ProfileRoute() {
  const { handle = '' } = useParams();
  const queryClient = useQueryClient();
  const session = useSession();
  const viewer: CurrentUser | null = session.status === 'authenticated' ? session.user : null;
  // What the profile shows changes with friendships (highlights, taste match) and ignores (stats).
  const refreshProfiles = () => queryClient.invalidateQueries({ queryKey: profileQueryKeys.all });

  return (
    <PublicProfilePage
      handle={handle}
      renderFriendButton={({ username, status, fetchedAt }) => (
        <FriendButton
          username={username}
          knownStatus={status}
          knownAt={fetchedAt}
          onChange={() => void refreshProfiles()}
        />
      )}
      renderIgnoreSong={(track) =>
        viewer && <IgnoreTrackButton track={track} viewer={viewer} onIgnored={refreshProfiles} />
      }
      renderIgnoreArtist={(artist) =>
        viewer && <IgnoreArtistButton artist={artist} onIgnored={refreshProfiles} />
      }
    />
  );
}
