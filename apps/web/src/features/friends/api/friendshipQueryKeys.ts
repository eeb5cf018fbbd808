/**
 * Query keys of the friendship area. Every friendship change invalidates `all`: the friends
 * list, the pending requests and the statuses move together.
 */
export const friendshipQueryKeys = {
  all: ['friendship'] as const,
  list: ['friendship', 'list'] as const,
  pending: ['friendship', 'pending'] as const,
  status: (user: string) => ['friendship', 'status', user] as const,
};
