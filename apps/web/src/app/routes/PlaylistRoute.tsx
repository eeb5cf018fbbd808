import { useParams } from 'react-router';
import { LogInFirst } from '../../features/account/components/LogInFirst';
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
  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'visitor':
      return <LogInFirst />;
    default:
      return <PlaylistsPage />;
  }
}
