import type { CurrentUser } from '@earshot/contract/user';
import { useQueryClient } from '@tanstack/react-query';

import { LikeButton } from '../../features/activity/components/LikeButton';
import { refreshAfterLike, setLikedInSuggestions } from '../../features/discover/api/suggestions';
import { DiscoverPage } from '../../features/discover/components/DiscoverPage';
import { DISCOVER_TEXTS } from '../../features/discover/discoverSections';
import { LazyIgnoreTrackMenuItem } from '../../features/ignore/components/LazyIgnoreTrackMenuItem';
import { SignedInOnly } from './SignedInOnly';

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
      renderTrackMenuItems={(item) => (
        <LazyIgnoreTrackMenuItem track={item.track} viewer={viewer} />
      )}
    />
  );
}

/** `/discover` (docs/product.md, Discover), for logged-in users: visitors log in first. */
export function DiscoverRoute() {
  return (
    <SignedInOnly failure={DISCOVER_TEXTS.failed}>
      {(user) => <DiscoverScreen viewer={user} />}
    </SignedInOnly>
  );
}
