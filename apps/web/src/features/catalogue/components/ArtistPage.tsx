import { formatCount } from '@earshot/contract/english';
import type { ArtistDetail } from '@earshot/contract/catalogue';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { LoadingState } from '../../../components/ui/LoadingState';
import { PageMeta } from '../../../components/ui/PageMeta';
import { PRODUCT_NAME } from '@earshot/contract/site';
import { ARTIST_HEADER_GENRES } from '../../../lib/constants';
import {
  artistPageMeta,
  formatTrackCount,
  releaseYear,
  type ArtistTabName,
} from '@earshot/contract/catalogue-meta';
import { useArtistAlbumsQuery } from '../api/artistAlbums';
import { useArtistDetailQuery } from '../api/artistDetail';
import { useArtistTracksQuery } from '../api/artistTracks';
import { useFollowArtistMutation } from '../api/followArtist';
import { albumTypeLabel } from '../catalogueFormat';
import { CatalogueNotice, CatalogueQuery, Cover } from './CatalogueStatus';
import { ListeningCard } from './ListeningCard';
import { TrackRows, type RenderTrackLike } from './TrackRows';
import './catalogue.css';

export type ArtistTab = ArtistTabName;

export interface ArtistPageSlots {
  renderLike: RenderTrackLike;
  /** The ignore or add-back button, from the ignore feature (disabled for visitors). */
  renderIgnore: (artist: { id: string; name: string }) => ReactNode;
}

interface ArtistPageProps extends ArtistPageSlots {
  artistId: string;
  tab: ArtistTab;
}

function ArtistMeta({ artist, tab }: { artist: ArtistDetail; tab: ArtistTab }) {
  return <PageMeta {...artistPageMeta(artist, tab, window.location.origin)} />;
}

function FollowButton({ artist }: { artist: ArtistDetail }) {
  const follow = useFollowArtistMutation(artist);
  if (artist.is_followed === null) return null;
  const followed = artist.is_followed;
  return (
    <button
      type="button"
      className={followed ? 'button button--secondary' : 'button button--primary'}
      aria-pressed={followed}
      disabled={follow.isPending}
      onClick={() => follow.mutate(!followed)}
    >
      {followed ? 'Following' : 'Follow'}
    </button>
  );
}

function ArtistHeader({
  artist,
  renderIgnore,
}: { artist: ArtistDetail } & Pick<ArtistPageSlots, 'renderIgnore'>) {
  const genres = artist.genres.slice(0, ARTIST_HEADER_GENRES);
  return (
    <header className="card catalogue-header">
      <Avatar name={artist.name} picture={artist.picture} size={160} />
      <div className="catalogue-header__text">
        <p className="catalogue-header__kind">Artist</p>
        <h1 className="catalogue-header__title">{artist.name}</h1>
        {genres.length > 0 && (
          <ul className="catalogue-genres" aria-label="Genres">
            {genres.map((genre) => (
              <li key={genre} className="catalogue-genre">
                {genre}
              </li>
            ))}
          </ul>
        )}
        <p className="catalogue-header__facts">
          {artist.followers !== null && <span>{formatCount(artist.followers)} followers</span>}
          {artist.popularity !== null && <span>Popularity {artist.popularity}</span>}
        </p>
        <div className="catalogue-header__actions">
          <FollowButton artist={artist} />
          {renderIgnore(artist)}
        </div>
      </div>
    </header>
  );
}

function ArtistTabs({ artist }: { artist: ArtistDetail }) {
  const base = `/artist/${encodeURIComponent(artist.id)}`;
  const tabs = [
    { to: base, label: 'Tracks', count: artist.track_count, end: true },
    { to: `${base}/likes`, label: 'Likes', count: artist.user_liked_tracks, end: false },
    { to: `${base}/albums`, label: 'Albums', count: artist.album_count, end: false },
  ];
  return (
    <nav className="catalogue-tabs" aria-label="Artist sections">
      {tabs.map((tab) => (
        <NavLink
          key={tab.label}
          to={tab.to}
          end={tab.end}
          className={({ isActive }) =>
            isActive ? 'catalogue-tab catalogue-tab--active' : 'catalogue-tab'
          }
        >
          {tab.label}{' '}
          {tab.count !== null && (
            <span className="catalogue-tab__count">{formatCount(tab.count)}</span>
          )}
        </NavLink>
      ))}
    </nav>
  );
}

function TracksTab({
  artist,
  likedOnly,
  renderLike,
}: {
  artist: ArtistDetail;
  likedOnly: boolean;
  renderLike: RenderTrackLike;
}) {
  const tracks = useArtistTracksQuery(artist.id);
  if (tracks.isPending) return <LoadingState />;
  if (tracks.isError) {
    return (
      <p className="catalogue-message" role="alert">
        {tracks.error.message || 'Failed to load artist tracks'}
      </p>
    );
  }
  const items = likedOnly
    ? tracks.data.items.filter((entry) => entry.liked === true)
    : tracks.data.items;
  if (items.length === 0) {
    return (
      <p className="catalogue-message">
        {likedOnly
          ? `You haven't liked any tracks by ${artist.name} yet.`
          : `${PRODUCT_NAME} knows no tracks by ${artist.name} yet.`}
      </p>
    );
  }
  return (
    <TrackRows
      tracks={items}
      label={likedOnly ? `Your liked tracks by ${artist.name}` : `Tracks by ${artist.name}`}
      variant="list"
      renderLike={renderLike}
    />
  );
}

function AlbumsTab({ artist }: { artist: ArtistDetail }) {
  const albums = useArtistAlbumsQuery(artist.id);
  if (albums.isPending) return <LoadingState />;
  if (albums.isError) {
    return (
      <p className="catalogue-message" role="alert">
        {albums.error.message || 'Failed to load albums'}
      </p>
    );
  }
  return (
    <>
      <CatalogueNotice notice={albums.data.notice} />
      {albums.data.items.length === 0 ? (
        <p className="catalogue-message">No albums by {artist.name} yet.</p>
      ) : (
        <ul className="album-grid" aria-label={`Albums by ${artist.name}`}>
          {albums.data.items.map((album) => {
            const year = releaseYear(album.release_date);
            return (
              <li key={album.id} className="album-card">
                <Link to={`/album/${encodeURIComponent(album.id)}`} className="album-card__link">
                  <Cover picture={album.picture} size={160} />
                  <span className="album-card__name">{album.name}</span>
                </Link>
                <span className="album-card__detail">
                  {[
                    year,
                    albumTypeLabel(album.album_type),
                    album.track_count !== null ? formatTrackCount(album.track_count) : null,
                  ]
                    .filter((part): part is string => !!part)
                    .join(' · ')}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

/** `/artist/{id}`, `/artist/{id}/likes` and `/artist/{id}/albums` (docs/product.md, "Artist page"). */
export function ArtistPage({ artistId, tab, renderLike, renderIgnore }: ArtistPageProps) {
  const query = useArtistDetailQuery(artistId);
  return (
    <CatalogueQuery query={query} entity="Artist" failureTitle="Failed to load artist details">
      {(artist) => (
        <article className="catalogue-page">
          <ArtistMeta artist={artist} tab={tab} />
          <ArtistHeader artist={artist} renderIgnore={renderIgnore} />
          <ListeningCard listening={artist.listening} subject={artist.name} />
          <ArtistTabs artist={artist} />
          <section className="catalogue-tab-panel">
            {tab === 'albums' ? (
              <AlbumsTab artist={artist} />
            ) : tab === 'likes' && artist.user_liked_tracks === null ? (
              <p className="catalogue-message">Please log in to view your liked tracks.</p>
            ) : (
              <TracksTab artist={artist} likedOnly={tab === 'likes'} renderLike={renderLike} />
            )}
          </section>
        </article>
      )}
    </CatalogueQuery>
  );
}
