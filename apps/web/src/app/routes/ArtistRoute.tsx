import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useSession } from '../../features/account/hooks/useSession';
import { catalogueQueryKeys } from '../../features/catalogue/api/catalogueQueryKeys';
import { ArtistPage, type ArtistTab } from '../../features/catalogue/components/ArtistPage';
import { ArtistIgnoreToggle } from '../../features/ignore/components/ArtistIgnoreToggle';
import { renderCatalogueLike } from './CatalogueLike';

/** `/artist/{id}` and its tabs, with the like and ignore features' buttons. */
export function ArtistRoute({ tab }: { tab: ArtistTab }) {
  const { artistId = '' } = useParams();
  const session = useSession();
  const queryClient = useQueryClient();
  return (
    <ArtistPage
      artistId={artistId}
      tab={tab}
      renderLike={renderCatalogueLike}
      renderIgnore={(artist) => (
        <ArtistIgnoreToggle
          artist={artist}
          signedIn={session.status === 'authenticated'}
          onChanged={() => queryClient.invalidateQueries({ queryKey: catalogueQueryKeys.all })}
        />
      )}
    />
  );
}
