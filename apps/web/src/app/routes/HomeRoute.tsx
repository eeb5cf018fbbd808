import { LoadingState } from '../../components/ui/LoadingState';
import { PageMeta } from '../../components/ui/PageMeta';
import { ConnectSpotifyButton } from '../../features/account/components/ConnectSpotifyButton';
import { SpotifyConnectionCard } from '../../features/account/components/SpotifyConnectionCard';
import { useSession } from '../../features/account/hooks/useSession';
import { LandingPage } from '../../features/landing/components/LandingPage';

/** `/`: the landing page for visitors, the home panel for logged-in users. */
export function HomeRoute() {
  const session = useSession();

  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return (
        <div className="home">
          <PageMeta title="Home" />
          <h1 className="home__title">
            Welcome back, {session.user.name || session.user.username}
          </h1>
          <SpotifyConnectionCard />
        </div>
      );
    case 'visitor':
    case 'unreachable':
      return (
        <LandingPage
          backendReachable={session.status === 'visitor'}
          connectAction={<ConnectSpotifyButton next="/" />}
        />
      );
  }
}
