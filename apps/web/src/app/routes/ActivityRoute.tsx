import type { CurrentUser } from '@earshot/contract/user';
import { Navigate, useLocation, useParams } from 'react-router';
import {
  activityPath,
  routeScope,
  type ActivityScope,
  type ActivityScopeKind,
} from '../../features/activity/activityScope';
import type { ActivityFeed } from '../../features/activity/api/activityFeed';
import { ActivityPage } from '../../features/activity/components/ActivityPage';
import { FEED_TEXTS } from '../../features/activity/feedTexts';
import { LazyIgnoreTrackMenuItem } from '../../features/ignore/components/LazyIgnoreTrackMenuItem';
import { TrackIgnoreBadge } from '../../features/ignore/components/TrackIgnoreBadge';
import { TrackIgnoreStates } from '../../features/ignore/components/TrackIgnoreStates';
import { SpotifyReconnectBanner } from './SpotifyReconnectBanner';
import { SignedInOnly } from './SignedInOnly';
import { AfterFirstPaint } from '../../lib/AfterFirstPaint';

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
    <TrackIgnoreStates>
      <ActivityPage
        feed={feed}
        scope={scope}
        viewerId={viewer.id}
        // Asked once the page has painted (decision 0048): revoked connections are rare.
        banner={
          feed === 'recent' && (
            <AfterFirstPaint>
              <SpotifyReconnectBanner />
            </AfterFirstPaint>
          )
        }
        renderTrackBadge={(item) => <TrackIgnoreBadge uid={item.track.uid} />}
        renderTrackMenuItems={(item) => (
          <LazyIgnoreTrackMenuItem track={item.track} viewer={viewer} />
        )}
      />
    </TrackIgnoreStates>
  );
}

interface ActivityRouteProps {
  feed: ActivityFeed;
  /** `user` takes the username from the `:username` path parameter. */
  scope: ActivityScopeKind;
}

/** `/recent…` and `/likes…` (docs/product.md §2), for logged-in users: visitors log in first. */
export function ActivityRoute({ feed, scope }: ActivityRouteProps) {
  const { username = '' } = useParams();
  const { search } = useLocation();
  return (
    <SignedInOnly failure={FEED_TEXTS[feed].error}>
      {(user) =>
        // The viewer's own name in the path (in any case, as the server reads it) is their Mine
        // page, where links to their name lead.
        scope === 'user' && username.toLowerCase() === user.username.toLowerCase() ? (
          <Navigate to={`${activityPath(feed, { kind: 'me' })}${search}`} replace />
        ) : (
          <ActivityScreen feed={feed} scope={routeScope(scope, username)} viewer={user} />
        )
      }
    </SignedInOnly>
  );
}
