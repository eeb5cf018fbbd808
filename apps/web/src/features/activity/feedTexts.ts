import type { ActivityFeed } from './api/activityFeed';

/** The texts of the Recent and Likes pages (docs/product.md §2), verbatim. */
export const FEED_TEXTS: Record<ActivityFeed, { title: string; empty: string; error: string }> = {
  recent: {
    title: 'Recent Activity',
    empty: 'No recent activity.',
    error: 'Failed to load recent activity.',
  },
  likes: { title: 'Likes', empty: 'No likes yet.', error: 'Failed to load likes.' },
};

export const SEARCH_PLACEHOLDER = 'Search title, album, artist, user or date';
