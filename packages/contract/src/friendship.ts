import { z } from 'zod';
import { userSummary } from './user';

/** Friendship with another user as seen from the viewer (docs/product.md §3 and §4). */
export const friendshipStatus = z.enum([
  'friends',
  'pending_outgoing',
  'pending_incoming',
  'self',
  'none',
]);
export type FriendshipStatus = z.infer<typeof friendshipStatus>;

export const friendshipStatusResponse = z
  .object({ status: friendshipStatus })
  .meta({ id: 'FriendshipStatus' });
export type FriendshipStatusResponse = z.infer<typeof friendshipStatusResponse>;

/** A row of the friends table: `requested` = the viewer asked, `pending` = the viewer may answer. */
export const friend = userSummary
  .extend({
    status: z.enum(['accepted', 'requested', 'pending']),
    likes: z.number().int(),
    /** ISO time of their latest play, null if none. */
    last_play: z.string().nullable(),
  })
  .meta({ id: 'Friend' });
export type Friend = z.infer<typeof friend>;

export const friendList = z.object({ friends: z.array(friend) }).meta({ id: 'FriendList' });
export type FriendList = z.infer<typeof friendList>;

export const pendingRequest = z
  .object({
    user: userSummary,
  })
  .meta({ id: 'PendingFriendRequest' });
export type PendingRequest = z.infer<typeof pendingRequest>;

export const pendingRequests = z
  .object({ requests: z.array(pendingRequest) })
  .meta({ id: 'PendingFriendRequests' });
export type PendingRequests = z.infer<typeof pendingRequests>;

/** `{user}` in friendship routes: a username or a user id. */
export const userParam = z.object({ user: z.string().min(1).max(64) });
