import { useLocation } from 'react-router';
import { useSpotifyStatsQuery } from '../../features/account/api/spotifyStats';
import { ConnectSpotifyButton } from '../../features/account/components/ConnectSpotifyButton';

/** Shown only while Spotify has revoked the connection, with a way to reconnect. */
export function SpotifyReconnectBanner() {
  const stats = useSpotifyStatsQuery({ watch: true });
  const { pathname, search } = useLocation();
  if (stats.data?.active !== false) return null;

  return (
    <div className="reconnect-banner" role="status">
      <span className="status-dot status-dot--offline" aria-hidden="true" />
      <p className="reconnect-banner__text">
        Spotify is disconnected. Reconnect to keep your plays and likes in sync.
      </p>
      <ConnectSpotifyButton next={`${pathname}${search}`} label="Reconnect Spotify" />
    </div>
  );
}
