import { formatCount } from '@earshot/contract/english';
import { Link } from 'react-router';
import { AbsoluteDate } from '../../../components/ui/AbsoluteDate';
import { LoadingState } from '../../../components/ui/LoadingState';
import { PageMeta } from '../../../components/ui/PageMeta';
import { usePlaylistsQuery } from '../api/playlists';
import { formatTrackCount } from '@earshot/contract/catalogue-meta';
import { Cover } from './CatalogueStatus';
import { PlaylistBadges } from './PlaylistBadges';
import './catalogue.css';

export const NO_PLAYLISTS_TEXT = "You don't have any playlists yet.";

/** `/playlists` (docs/product.md, "Playlists"): the viewer's playlists. */
export function PlaylistsPage() {
  const playlists = usePlaylistsQuery();
  return (
    <section className="catalogue-page" aria-labelledby="playlists-title">
      <PageMeta title="Playlists" noindex />
      <header className="playlists-header">
        <h1 id="playlists-title" className="playlists-header__title">
          Playlists
        </h1>
        {playlists.data && (
          <span className="playlists-header__count">
            {playlists.data.total === 1
              ? '1 playlist'
              : `${formatCount(playlists.data.total)} playlists`}
          </span>
        )}
      </header>
      {playlists.isPending ? (
        <LoadingState />
      ) : playlists.isError ? (
        <p className="catalogue-message" role="alert">
          {playlists.error.message || 'Failed to load playlists'}
        </p>
      ) : playlists.data.items.length === 0 ? (
        <p className="catalogue-message">{NO_PLAYLISTS_TEXT}</p>
      ) : (
        <ul className="playlist-list">
          {playlists.data.items.map((playlist) => (
            <li key={playlist.id} className="card playlist-card">
              <Cover picture={playlist.picture} size={64} />
              <div className="playlist-card__text">
                <Link
                  className="playlist-card__name"
                  to={`/playlist/${encodeURIComponent(playlist.id)}`}
                >
                  {playlist.name}
                </Link>
                <span className="playlist-card__detail">
                  <span>{formatTrackCount(playlist.track_count)}</span>
                  {playlist.added_at && (
                    <span>
                      Created <AbsoluteDate iso={playlist.added_at} />
                    </span>
                  )}
                  <PlaylistBadges
                    isPublic={playlist.is_public}
                    isCollaborative={playlist.is_collaborative}
                  />
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
