import { Navigate } from 'react-router';
import { LoadingState } from '../../components/ui/LoadingState';
import { useSession } from '../../features/account/hooks/useSession';
import { IgnoredPage } from '../../features/ignore/components/IgnoredPage';

/** `/ignored`, for logged-in users: visitors log in first and come back. */
export function IgnoredRoute() {
  const session = useSession();
  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return <IgnoredPage isAdmin={session.user.is_admin} />;
    case 'visitor':
      return <Navigate to="/login?next=%2Fignored" replace />;
    case 'unreachable':
      return (
        <p className="route-message" role="alert">
          Failed to load your ignored items.
        </p>
      );
  }
}
