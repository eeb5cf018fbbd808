import type { CurrentUser } from '@earshot/contract/user';
import { useQueryClient } from '@tanstack/react-query';
import { LoadingState } from '../../components/ui/LoadingState';
import { currentUserQueryOptions } from '../../features/account/api/currentUser';
import { useSpotifyStatsQuery } from '../../features/account/api/spotifyStats';
import { ConnectSpotifyButton } from '../../features/account/components/ConnectSpotifyButton';
import { useSession } from '../../features/account/hooks/useSession';
import { SettingsLoginPrompt, SettingsPage } from '../../features/settings/components/SettingsPage';
import type { StreamingConnection } from '../../features/settings/components/StreamingAccountCard';

function UserSettings({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const stats = useSpotifyStatsQuery();
  const connection: StreamingConnection = stats.isPending
    ? { state: 'checking' }
    : stats.isError
      ? { state: 'failed', message: stats.error.message }
      : { state: stats.data.active ? 'active' : 'inactive' };

  return (
    <SettingsPage
      username={user.username}
      email={user.email}
      connection={connection}
      connectAction={<ConnectSpotifyButton next="/settings" label="Connect Spotify" />}
      onUsernameSaved={() =>
        void queryClient.invalidateQueries({ queryKey: currentUserQueryOptions().queryKey })
      }
    />
  );
}

/** `/settings`: the user's settings, composed from the account and settings features. */
export function SettingsRoute() {
  const session = useSession();
  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return <UserSettings user={session.user} />;
    case 'visitor':
      return <SettingsLoginPrompt />;
    case 'unreachable':
      return (
        <p className="route-message" role="alert">
          Failed to load your settings.
        </p>
      );
  }
}
