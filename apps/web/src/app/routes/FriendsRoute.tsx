import { Navigate } from 'react-router';
import { LoadingState } from '../../components/ui/LoadingState';
import { useSession } from '../../features/account/hooks/useSession';
import { FriendsPage } from '../../features/friends/components/FriendsPage';

/** `/friends`, for logged-in users: visitors log in first and come back. */
export function FriendsRoute() {
  const session = useSession();
  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return <FriendsPage viewerUsername={session.user.username} />;
    case 'visitor':
      return <Navigate to="/login?next=%2Ffriends" replace />;
    case 'unreachable':
      return (
        <p className="route-message" role="alert">
          Failed to load friends.
        </p>
      );
  }
}
