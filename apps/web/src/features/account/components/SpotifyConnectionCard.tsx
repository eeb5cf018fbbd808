import { useSpotifyStatsQuery } from '../api/spotifyStats';
import { ConnectSpotifyButton } from './ConnectSpotifyButton';
import './account.css';

/** The state of the user's Spotify connection, with a way to reconnect when Spotify revoked it. */
export function SpotifyConnectionCard() {
  const stats = useSpotifyStatsQuery();

  return (
    <section className="card connection-card" aria-labelledby="spotify-connection-title">
      <h2 id="spotify-connection-title" className="card__title">
        Spotify
      </h2>
      {stats.isPending && <p className="connection-card__status">Checking…</p>}
      {stats.isError && (
        <p className="connection-card__status connection-card__status--error" role="alert">
          {stats.error.message}
        </p>
      )}
      {stats.data?.active === true && (
        <p className="connection-card__status connection-card__status--active">
          <span className="status-dot status-dot--online" aria-hidden="true" />
          Spotify connected
        </p>
      )}
      {stats.data?.active === false && (
        <>
          <p className="connection-card__status">
            <span className="status-dot status-dot--offline" aria-hidden="true" />
            Spotify is disconnected. Reconnect to keep your plays and likes in sync.
          </p>
          <ConnectSpotifyButton next="/" label="Reconnect Spotify" />
        </>
      )}
    </section>
  );
}
