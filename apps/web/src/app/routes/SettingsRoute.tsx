import type { CurrentUser } from '@earshot/contract/user';
import { useQueryClient } from '@tanstack/react-query';
import { currentUserQueryOptions } from '../../features/account/api/currentUser';
import { useSpotifyStatsQuery } from '../../features/account/api/spotifyStats';
import { ConnectSpotifyButton } from '../../features/account/components/ConnectSpotifyButton';
import { SettingsLoginPrompt, SettingsPage } from '../../features/settings/components/SettingsPage';
import type { StreamingConnection } from '../../features/settings/components/StreamingAccountCard';
import { SignedInOnly } from './SignedInOnly';

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
  return (
    <SignedInOnly visitor={<SettingsLoginPrompt />} failure="Failed to load your settings.">
      {(user) => <UserSettings user={user} />}
    </SignedInOnly>
  );
}
