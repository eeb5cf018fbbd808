import { LoadingState } from '../../components/ui/LoadingState';
import { ConnectSpotifyButton } from '../../features/account/components/ConnectSpotifyButton';
import { useSession } from '../../features/account/hooks/useSession';
import { LandingPage } from '../../features/landing/components/LandingPage';
import { ActivityScreenPage } from '../activityPages';

/** `/`: the landing page for visitors, Recent Activity (all) for logged-in users. */
export function HomeRoute() {
  const session = useSession();

  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return <ActivityScreenPage feed="recent" scope={{ kind: 'all' }} viewer={session.user} />;
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
