import { Navigate, useLocation, useParams } from 'react-router';
import { LoadingState } from '../../components/ui/LoadingState';
import { useSession } from '../../features/account/hooks/useSession';
import { PlaylistPage } from '../../features/catalogue/components/PlaylistPage';
import { PlaylistsPage } from '../../features/catalogue/components/PlaylistsPage';
import { renderCatalogueLike } from './CatalogueLike';

/** `/playlist/{id}`, for visitors too. */
export function PlaylistRoute() {
  const { playlistId = '' } = useParams();
  const session = useSession();
  if (session.status === 'loading') return <LoadingState />;
  return (
    <PlaylistPage
      playlistId={playlistId}
      renderLike={renderCatalogueLike}
      signedIn={session.status === 'authenticated'}
    />
  );
}

/** `/playlists`, for logged-in users: visitors log in first. */
export function PlaylistsRoute() {
  const session = useSession();
  const { pathname, search } = useLocation();
  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'visitor':
      return (
        <Navigate
          to={`/login?${new URLSearchParams({ next: `${pathname}${search}` }).toString()}`}
          replace
        />
      );
    default:
      return <PlaylistsPage />;
  }
}
