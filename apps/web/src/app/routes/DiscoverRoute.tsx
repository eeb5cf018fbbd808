import type { CurrentUser } from '@earshot/contract/user';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router';
import { LoadingState } from '../../components/ui/LoadingState';
import { useSession } from '../../features/account/hooks/useSession';
import { LikeButton } from '../../features/activity/components/LikeButton';
import { refreshAfterLike, setLikedInSuggestions } from '../../features/discover/api/suggestions';
import { DiscoverPage } from '../../features/discover/components/DiscoverPage';
import { DISCOVER_TEXTS } from '../../features/discover/discoverSections';
import { IgnoreTrackMenuItem } from '../../features/ignore/components/IgnoreTrackMenuItem';

/**
 * The Discover page for the logged-in viewer, composed with the activity feature's like button
 * (whose state the suggestions follow) and the ignore feature's track menu.
 */
function DiscoverScreen({ viewer }: { viewer: CurrentUser }) {
  const queryClient = useQueryClient();
  return (
    <DiscoverPage
      renderLikeButton={(item) => (
        <LikeButton
          uid={item.track.uid}
          liked={item.liked}
          title={item.track.title}
          onLikedChange={(liked) => setLikedInSuggestions(queryClient, item.track.uid, liked)}
          onSettled={() => void refreshAfterLike(queryClient)}
        />
      )}
      renderTrackMenuItems={(item) => <IgnoreTrackMenuItem track={item.track} viewer={viewer} />}
    />
  );
}

/** `/discover` (docs/product.md, Discover), for logged-in users: visitors log in first. */
export function DiscoverRoute() {
  const session = useSession();
  const { pathname, search } = useLocation();

  switch (session.status) {
    case 'loading':
      return <LoadingState />;
    case 'authenticated':
      return <DiscoverScreen viewer={session.user} />;
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
          {DISCOVER_TEXTS.failed}
        </p>
      );
  }
}
