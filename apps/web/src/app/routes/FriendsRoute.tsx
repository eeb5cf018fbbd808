import { FriendsPage } from '../../features/friends/components/FriendsPage';
import { SignedInOnly } from './SignedInOnly';

/** `/friends`, for logged-in users: visitors log in first and come back. */
export function FriendsRoute() {
  return (
    <SignedInOnly failure="Failed to load friends.">
      {(user) => <FriendsPage viewerUsername={user.username} />}
    </SignedInOnly>
  );
}
