import { z } from 'zod';
import { trackSummary } from './track';
import { userReference } from './user';

export const ACTIVITY_PAGE_SIZE = 30;
export const ACTIVITY_MAX_PAGE_SIZE = 50;

/** `GET /api/recent` and `GET /api/likes` (docs/product.md §7). */
export const activityQuery = z.object({
  limit: z.coerce.number().int().min(1).max(ACTIVITY_MAX_PAGE_SIZE).default(ACTIVITY_PAGE_SIZE),
  /** The `next_before` of the previous page. */
  before: z.string().max(200).optional(),
  /** Sent only as false: friends only, without the viewer. */
  include_me: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /** One user (username or id): the viewer or a friend. */
  user: z.string().min(1).max(64).optional(),
  /** Title, album, artist, user name or username, or a date: 2024, 2024-05, 2024-05-17, May 2024, 17 May 2024. */
  q: z.string().trim().max(200).optional(),
});
export type ActivityQuery = z.input<typeof activityQuery>;

/** The two feeds: plays (`GET /api/recent`) and likes (`GET /api/likes`). */
export type ActivityFeed = 'recent' | 'likes';

/** What a feed is narrowed to: the query of docs/product.md §7 without the paging. */
export interface ActivityFilters {
  /** False: friends only, without the viewer (`include_me=false`). */
  includeMe: boolean;
  /** One user (username or id), or everyone in scope. */
  user: string | null;
  /** The search text; empty for none. */
  q: string;
}

/**
 * The address of a feed's page after the page whose `next_before` is `before` (null: the
 * first). The web app asks for it, and the server names the first page in the HTML of the feed
 * pages for the browser to fetch beside the code: one builder keeps the two addresses the same.
 */
export function activityFeedPath(
  feed: ActivityFeed,
  filters: ActivityFilters,
  before: string | null = null,
): string {
  const params: [string, string][] = [['limit', String(ACTIVITY_PAGE_SIZE)]];
  if (before !== null) params.push(['before', before]);
  if (!filters.includeMe) params.push(['include_me', 'false']);
  if (filters.user !== null) params.push(['user', filters.user]);
  if (filters.q !== '') params.push(['q', filters.q]);
  const query = params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `/api/${feed}?${query}`;
}

/** A play or a like (docs/product.md §3). */
export const activityItem = z
  .object({
    user: userReference,
    track: trackSummary,
    /** Whether the viewer likes this song. */
    liked: z.boolean(),
    /** ISO time: when it was played, or liked. */
    date: z.string(),
    /** That user's plays of this track. */
    play_count: z.number().int(),
    reason: z.string().nullable(),
    context_uri: z.string().nullable(),
    /** Ignored for everyone by the admins. */
    is_global: z.boolean(),
    /** The viewer asked the admins to ignore it for everyone. */
    reported: z.boolean(),
  })
  .meta({ id: 'ActivityItem' });
export type ActivityItem = z.infer<typeof activityItem>;

export const activityPage = z
  .object({ items: z.array(activityItem), next_before: z.string().nullable() })
  .meta({ id: 'ActivityPage' });
export type ActivityPage = z.infer<typeof activityPage>;

export const likeRequest = z.object({ uid: z.string().min(1).max(64), liked: z.boolean() });
export const likeResponse = z.object({ uid: z.string(), liked: z.boolean() }).meta({ id: 'Like' });
export type LikeResponse = z.infer<typeof likeResponse>;
