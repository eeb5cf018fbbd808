import { Navigate } from 'react-router';
import { LoadingState } from '../../components/ui/LoadingState';
import { useSession } from '../../features/account/hooks/useSession';
import { ImportPage } from '../../features/import/components/ImportPage';

/** `/spotify/import`, for logged-in users: visitors log in first and come back. */
export function ImportRoute() {
  const session = useSession();
  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return <ImportPage />;
    case 'visitor':
      return <Navigate to="/login?next=%2Fspotify%2Fimport" replace />;
    case 'unreachable':
      return (
        <p className="route-message" role="alert">
          Failed to load the import page.
        </p>
      );
  }
}
