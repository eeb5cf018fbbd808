import { useParams } from 'react-router';
import { AlbumPage } from '../../features/catalogue/components/AlbumPage';
import { TrackPage } from '../../features/catalogue/components/TrackPage';
import { renderCatalogueLike } from './CatalogueLike';

/** `/track/{id}`, with the activity feature's like button. */
export function TrackRoute() {
  const { trackId = '' } = useParams();
  return <TrackPage trackId={trackId} renderLike={renderCatalogueLike} />;
}

/** `/album/{id}`, with the activity feature's like button on its tracks. */
export function AlbumRoute() {
  const { albumId = '' } = useParams();
  return <AlbumPage albumId={albumId} renderLike={renderCatalogueLike} />;
}
