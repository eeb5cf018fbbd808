import type { PlaylistDetail } from '@earshot/contract/catalogue';
import { Link, useLocation } from 'react-router';
import { AbsoluteDate } from '../../../components/ui/AbsoluteDate';
import { PageMeta } from '../../../components/ui/PageMeta';
import { StatusPage } from '../../../components/ui/StatusPage';
import { formatTrackCount, playlistPageMeta } from '@earshot/contract/catalogue-meta';
import { usePlaylistDetailQuery } from '../api/playlistDetail';
import { CatalogueNotice, CatalogueQuery, Cover } from './CatalogueStatus';
import { PlaylistBadges } from './PlaylistBadges';
import { TrackRows, type RenderTrackLike } from './TrackRows';
import './catalogue.css';

/** The owner's message for an empty playlist (docs/product.md, "Playlist page"). */
export const OWNER_EMPTY_PLAYLIST_TEXT =
  'This playlist is empty. Add tracks on Spotify to see them here.';

interface PlaylistPageProps {
  playlistId: string;
  renderLike: RenderTrackLike;
  /** Whether the viewer is logged in: a visitor refused a private playlist may log in. */
  signedIn: boolean;
}

function PlaylistMeta({ playlist }: { playlist: PlaylistDetail }) {
  return <PageMeta {...playlistPageMeta(playlist, window.location.origin)} />;
}

function OwnerLink({ owner }: { owner: PlaylistDetail['owner'] }) {
  if (owner.username === null) return <>{owner.name}</>;
  return <Link to={`/user/${encodeURIComponent(owner.username)}`}>{owner.name}</Link>;
}

function PlaylistView({
  playlist,
  renderLike,
}: {
  playlist: PlaylistDetail;
  renderLike: RenderTrackLike;
}) {
  const empty = playlist.track_count === 0 && playlist.tracks.length === 0;
  return (
    <article className="catalogue-page">
      <PlaylistMeta playlist={playlist} />
      <header className="card catalogue-header">
        <Cover picture={playlist.picture} size={200} />
        <div className="catalogue-header__text">
          <p className="catalogue-header__kind">Playlist</p>
          <h1 className="catalogue-header__title">{playlist.name}</h1>
          {playlist.description && (
            <p className="catalogue-header__description">{playlist.description}</p>
          )}
          <p className="catalogue-header__facts">
            <span>
              By <OwnerLink owner={playlist.owner} />
            </span>
            <span>{formatTrackCount(playlist.track_count)}</span>
            <PlaylistBadges
              isPublic={playlist.is_public}
              isCollaborative={playlist.is_collaborative}
            />
          </p>
        </div>
      </header>
      <CatalogueNotice notice={playlist.notice} />
      {empty ? (
        <p className="catalogue-message">
          {playlist.is_owner ? OWNER_EMPTY_PLAYLIST_TEXT : 'This playlist is empty.'}
        </p>
      ) : (
        playlist.tracks.length > 0 && (
          <section className="card" aria-labelledby="playlist-tracks-title">
            <h2 id="playlist-tracks-title" className="card__title">
              Tracks
            </h2>
            <TrackRows
              tracks={playlist.tracks}
              label={`Tracks of ${playlist.name}`}
              variant="list"
              renderLike={renderLike}
              renderExtra={(_entry, index) => {
                const addedAt = playlist.tracks[index]?.added_at;
                return (
                  <span className="track-row__added">
                    {addedAt && <AbsoluteDate iso={addedAt} />}
                  </span>
                );
              }}
            />
          </section>
        )
      )}
    </article>
  );
}

function PrivatePlaylist({ message, signedIn }: { message: string; signedIn: boolean }) {
  const { pathname, search } = useLocation();
  const next = `${pathname}${search}`;
  return (
    <StatusPage title={message} code={403}>
      <p className="status-page__message">
        Only its owner and collaborators can see this playlist.
      </p>
      {!signedIn && (
        <Link
          className="button button--primary"
          to={`/login?${new URLSearchParams({ next }).toString()}`}
        >
          Log in
        </Link>
      )}
    </StatusPage>
  );
}

/** `/playlist/{id}` (docs/product.md, "Playlist page"). */
export function PlaylistPage({ playlistId, renderLike, signedIn }: PlaylistPageProps) {
  const query = usePlaylistDetailQuery(playlistId);
  return (
    <CatalogueQuery
      query={query}
      entity="Playlist"
      failureTitle="Failed to load playlist"
      renderRefusal={(error) =>
        error.status === 403 ? (
          <PrivatePlaylist message={error.message} signedIn={signedIn} />
        ) : null
      }
    >
      {(playlist) => <PlaylistView playlist={playlist} renderLike={renderLike} />}
    </CatalogueQuery>
  );
}
