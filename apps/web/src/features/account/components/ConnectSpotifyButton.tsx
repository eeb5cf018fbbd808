import { useNavigate } from 'react-router';
import { ConnectIcon } from '../../../components/ui/icons';
import { loadPage } from '../../../lib/browserLocation';
import { useSpotifyAuthorizeMutation } from '../api/spotifyAuthorize';

interface ConnectSpotifyButtonProps {
  /** Where to come back to after Spotify's authorization page. */
  next: string;
  label?: string;
}

/**
 * Starts the Spotify login: asks the server for the authorization URL and sends the browser
 * there. A failure goes to `/error?type=api&message=…` (docs/product.md §8).
 */
export function ConnectSpotifyButton({
  next,
  label = 'Connect with Spotify',
}: ConnectSpotifyButtonProps) {
  const navigate = useNavigate();
  const authorize = useSpotifyAuthorizeMutation();
  const redirecting = authorize.isPending || authorize.isSuccess;

  function connect() {
    authorize.mutate(next, {
      onSuccess: (authorizationUrl) => loadPage(authorizationUrl),
      onError: (error) => {
        const query = new URLSearchParams({ type: 'api', message: error.message });
        void navigate(`/error?${query.toString()}`);
      },
    });
  }

  return (
    <button
      type="button"
      className="button button--spotify"
      onClick={connect}
      disabled={redirecting}
      aria-busy={redirecting}
    >
      {redirecting ? (
        <span className="spinner spinner--small" aria-hidden="true" />
      ) : (
        <ConnectIcon />
      )}
      <span>{label}</span>
    </button>
  );
}
