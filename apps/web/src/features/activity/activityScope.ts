import type { ActivityFeed, ActivityFilters } from './api/activityFeed';

/** Whose activity a Recent or Likes page shows (docs/product.md §2). */
export type ActivityScope =
  { kind: 'all' } | { kind: 'friends' } | { kind: 'me' } | { kind: 'user'; username: string };

export type ActivityScopeKind = ActivityScope['kind'];

/** The scope of a route: `user` names the `:username` of its path. */
export function routeScope(kind: ActivityScopeKind, username: string): ActivityScope {
  return kind === 'user' ? { kind: 'user', username } : { kind };
}

/** The API filters of a scope; `me` is the viewer's id, stable across username changes. */
export function activityFilters(
  scope: ActivityScope,
  viewerId: string,
  q: string,
): ActivityFilters {
  switch (scope.kind) {
    case 'all':
      return { includeMe: true, user: null, q };
    case 'friends':
      return { includeMe: false, user: null, q };
    case 'me':
      return { includeMe: true, user: viewerId, q };
    case 'user':
      return { includeMe: true, user: scope.username, q };
  }
}

/** The page path of a feed and scope: `/recent`, `/likes/friends`, `/recent/user/{username}`… */
export function activityPath(feed: ActivityFeed, scope: ActivityScope): string {
  switch (scope.kind) {
    case 'all':
      return `/${feed}`;
    case 'friends':
    case 'me':
      return `/${feed}/${scope.kind}`;
    case 'user':
      return `/${feed}/user/${encodeURIComponent(scope.username)}`;
  }
}

/** A path with the search text kept as its `q` parameter. */
export function withSearch(path: string, q: string): string {
  return q === '' ? path : `${path}?${new URLSearchParams({ q }).toString()}`;
}

/** Where a user's name leads: the `/me` page for the viewer, else that user's page. */
export function userActivityPath(
  feed: ActivityFeed,
  user: { id: string; username: string },
  viewerId: string,
  q: string,
): string {
  const scope: ActivityScope =
    user.id === viewerId ? { kind: 'me' } : { kind: 'user', username: user.username };
  return withSearch(activityPath(feed, scope), q);
}
