import type { CurrentUser } from '@earshot/contract/user';
import { Navigate, useLocation, useParams } from 'react-router';
import { LoadingState } from '../../components/ui/LoadingState';
import { useSession } from '../../features/account/hooks/useSession';
import type { ActivityScope, ActivityScopeKind } from '../../features/activity/activityScope';
import type { ActivityFeed } from '../../features/activity/api/activityFeed';
import { ActivityPage } from '../../features/activity/components/ActivityPage';
import { FEED_TEXTS } from '../../features/activity/feedTexts';
import { IgnoreTrackMenuItem } from '../../features/ignore/components/IgnoreTrackMenuItem';
import { TrackIgnoreBadge } from '../../features/ignore/components/TrackIgnoreBadge';
import { SpotifyReconnectBanner } from './SpotifyReconnectBanner';

interface ActivityScreenProps {
  feed: ActivityFeed;
  scope: ActivityScope;
  viewer: CurrentUser;
}

/**
 * A Recent or Likes page for the logged-in viewer, composed with the ignore feature (the track
 * menu and the ignored state of each row) and, on Recent, the Spotify reconnect banner.
 */
export function ActivityScreen({ feed, scope, viewer }: ActivityScreenProps) {
  return (
    <ActivityPage
      feed={feed}
      scope={scope}
      viewerId={viewer.id}
      banner={feed === 'recent' && <SpotifyReconnectBanner />}
      renderTrackBadge={(item) => <TrackIgnoreBadge uid={item.track.uid} />}
      renderTrackMenuItems={(item) => <IgnoreTrackMenuItem track={item.track} viewer={viewer} />}
    />
  );
}

interface ActivityRouteProps {
  feed: ActivityFeed;
  /** `user` takes the username from the `:username` path parameter. */
  scope: ActivityScopeKind;
}

/** `/recent…` and `/likes…` (docs/product.md §2), for logged-in users: visitors log in first. */
export function ActivityRoute({ feed, scope }: ActivityRouteProps) {
  const session = useSession();
  const { username = '' } = useParams();
  const { pathname, search } = useLocation();

  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return (
        <ActivityScreen
          feed={feed}
          scope={scope === 'user' ? { kind: 'user', username } : { kind: scope }}
          viewer={session.user}
        />
      );
    case 'visitor':
      return (
        <Navigate
          to={`/login?${new URLSearchParams({ next: `${pathname}${search}` }).toString()}`}
          replace
        />
      );
    case 'unreachable':
      return (
        <p className="route-message" role="alert">
          {FEED_TEXTS[feed].error}
        </p>
      );
  }
}
