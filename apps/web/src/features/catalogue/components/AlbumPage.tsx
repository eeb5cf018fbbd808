import { ArtistLinks } from '../../../components/ui/ArtistLinks';
import type { AlbumDetail } from '@earshot/contract/catalogue';
import { PageMeta } from '../../../components/ui/PageMeta';
import { PRODUCT_NAME } from '@earshot/contract/site';
import { albumPageMeta, formatTrackCount, releaseYear } from '@earshot/contract/catalogue-meta';
import { useAlbumDetailQuery } from '../api/albumDetail';
import { albumTypeLabel } from '../catalogueFormat';
import { ArtistGrid } from './ArtistGrid';
import { CatalogueNotice, CatalogueQuery, Cover } from './CatalogueStatus';
import { ListeningCard } from './ListeningCard';
import { TrackRows, type RenderTrackLike } from './TrackRows';
import './catalogue.css';

interface AlbumPageProps {
  albumId: string;
  renderLike: RenderTrackLike;
}

function AlbumMeta({ album }: { album: AlbumDetail }) {
  return (
    <PageMeta
      {...albumPageMeta({ ...album, trackCount: album.tracks.length }, window.location.origin)}
    />
  );
}

function AlbumView({ album, renderLike }: { album: AlbumDetail; renderLike: RenderTrackLike }) {
  const year = releaseYear(album.release_date);
  const trackCount = album.track_count ?? album.tracks.length;
  return (
    <article className="catalogue-page">
      <AlbumMeta album={album} />
      <header className="card catalogue-header">
        <Cover picture={album.picture} size={200} />
        <div className="catalogue-header__text">
          <p className="catalogue-header__kind">{albumTypeLabel(album.album_type)}</p>
          <h1 className="catalogue-header__title">{album.name}</h1>
          <p className="catalogue-header__artists">
            <ArtistLinks artists={album.album_artists} />
          </p>
          <p className="catalogue-header__facts">
            {year && <span aria-label="Release year">{year}</span>}
            <span>{formatTrackCount(trackCount)}</span>
          </p>
        </div>
      </header>
      <CatalogueNotice notice={album.notice} />
      <ListeningCard listening={album.listening} subject="this album" />
      <section className="card" aria-labelledby="album-tracks-title">
        <h2 id="album-tracks-title" className="card__title">
          Tracks
        </h2>
        {album.tracks.length === 0 ? (
          <p className="catalogue-message">{PRODUCT_NAME} does not know this album's tracks yet.</p>
        ) : (
          <TrackRows
            tracks={album.tracks}
            label={`Tracks of ${album.name}`}
            variant="album"
            renderLike={renderLike}
          />
        )}
      </section>
      <ArtistGrid title="Artists" artists={album.album_artists} />
    </article>
  );
}

/** `/album/{id}` (docs/product.md, "Album page"). */
export function AlbumPage({ albumId, renderLike }: AlbumPageProps) {
  const query = useAlbumDetailQuery(albumId);
  return (
    <CatalogueQuery query={query} entity="Album" failureTitle="Failed to load album details">
      {(album) => <AlbumView album={album} renderLike={renderLike} />}
    </CatalogueQuery>
  );
}
