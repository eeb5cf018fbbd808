import { formatCount } from '@earshot/contract/english';
import { ArtistLinks } from '../../../components/ui/ArtistLinks';
import type { TrackDetail } from '@earshot/contract/catalogue';
import type { TrackSummary } from '@earshot/contract/track';
import { Link } from 'react-router';
import { PageMeta } from '../../../components/ui/PageMeta';
import { PlayButton } from '../../../components/ui/PlayButton';
import { trackPageMeta } from '@earshot/contract/catalogue-meta';
import { useTrackDetailQuery } from '../api/trackDetail';
import { formatDuration } from '../catalogueFormat';
import { ArtistGrid } from './ArtistGrid';
import { CatalogueQuery, Cover } from './CatalogueStatus';
import { ListeningCard } from './ListeningCard';
import { TrackRows, type RenderTrackLike } from './TrackRows';
import './catalogue.css';

interface TrackPageProps {
  trackId: string;
  renderLike: RenderTrackLike;
}

function TrackMeta({ detail }: { detail: TrackDetail }) {
  return <PageMeta {...trackPageMeta(detail.track, window.location.origin)} />;
}

function TrackSection({
  title,
  tracks,
  renderLike,
}: {
  title: string;
  tracks: readonly TrackSummary[];
  renderLike: RenderTrackLike;
}) {
  if (tracks.length === 0) return null;
  return (
    <section className="card" aria-label={title}>
      <h2 className="card__title">{title}</h2>
      <TrackRows
        tracks={tracks.map((track) => ({ track, liked: null, play_count: null }))}
        label={title}
        variant="list"
        renderLike={renderLike}
      />
    </section>
  );
}

function TrackView({ detail, renderLike }: { detail: TrackDetail; renderLike: RenderTrackLike }) {
  const { track } = detail;
  return (
    <article className="catalogue-page">
      <TrackMeta detail={detail} />
      <header className="card catalogue-header">
        <Cover picture={track.album?.picture ?? null} size={200} />
        <div className="catalogue-header__text">
          <p className="catalogue-header__kind">Track</p>
          <h1 className="catalogue-header__title">{track.title}</h1>
          <p className="catalogue-header__artists">
            <ArtistLinks artists={track.artists} />
          </p>
          <p className="catalogue-header__facts">
            {track.album && (
              <span>
                <Link to={`/album/${encodeURIComponent(track.album.id)}`}>{track.album.name}</Link>
              </span>
            )}
            {track.duration !== null && (
              <span aria-label="Duration">{formatDuration(track.duration)}</span>
            )}
            {track.popularity !== null && <span>Popularity {track.popularity}</span>}
          </p>
          <div className="catalogue-header__actions">
            {/* Shown to subscribed users only; played in its album when Earshot knows it. */}
            <PlayButton
              track={track}
              context={{
                source: 'track',
                user: null,
                context_uri: track.album ? `spotify:album:${track.album.id}` : null,
              }}
            />
            {detail.liked !== null && renderLike(track, detail.liked)}
            <span className="catalogue-header__likes">
              {detail.total_likes === 1 ? '1 like' : `${formatCount(detail.total_likes)} likes`}
            </span>
          </div>
        </div>
      </header>
      <ListeningCard listening={detail.listening} subject="this track" />
      <ArtistGrid title="Album artists" artists={detail.album_artists} />
      <TrackSection title="Other Versions" tracks={detail.other_versions} renderLike={renderLike} />
      <TrackSection title="Similar tracks" tracks={detail.similar_tracks} renderLike={renderLike} />
    </article>
  );
}

/** `/track/{id}` (docs/product.md, "Track page"). */
export function TrackPage({ trackId, renderLike }: TrackPageProps) {
  const query = useTrackDetailQuery(trackId);
  return (
    <CatalogueQuery query={query} entity="Track" failureTitle="Failed to load track details">
      {(detail) => <TrackView detail={detail} renderLike={renderLike} />}
    </CatalogueQuery>
  );
}
