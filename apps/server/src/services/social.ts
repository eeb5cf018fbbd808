import type { Friend, FriendshipStatus, PendingRequest } from '@earshot/contract/friendship';
import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { plays } from '../db/schema/listening';
import { friendRequests, friendships } from '../db/schema/social';
import { users } from '../db/schema/users';
import { HttpError } from '../errors';
import { countedLikes } from './ignore';

/**
 * Friendship transitions (docs/product.md §4), each in one transaction under a lock on the pair so that two requests
 * crossing each other become one friendship, never two dangling requests. Asking again while
 * pending, and asking or accepting between friends, change nothing.
 */
async function lockPair(tx: Tx, a: string, b: string): Promise<void> {
  const [low, high] = a < b ? [a, b] : [b, a];
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`friendship:${low}:${high}`}))`);
}

async function statusInside(tx: Db | Tx, viewer: string, other: string): Promise<FriendshipStatus> {
  if (viewer === other) return 'self';
  const result = await tx.execute<{ status: FriendshipStatus }>(sql`
    SELECT CASE
      WHEN EXISTS (SELECT 1 FROM ${friendships}
                   WHERE ${friendships.userId} = ${viewer} AND ${friendships.friendId} = ${other})
        THEN 'friends'
      WHEN EXISTS (SELECT 1 FROM ${friendRequests}
                   WHERE ${friendRequests.requesterId} = ${viewer} AND ${friendRequests.addresseeId} = ${other})
        THEN 'pending_outgoing'
      WHEN EXISTS (SELECT 1 FROM ${friendRequests}
                   WHERE ${friendRequests.requesterId} = ${other} AND ${friendRequests.addresseeId} = ${viewer})
        THEN 'pending_incoming'
      ELSE 'none' END AS status`);
  return result.rows[0]?.status ?? 'none';
}

export function friendshipStatus(db: Db, viewer: string, other: string) {
  return statusInside(db, viewer, other);
}

async function befriend(tx: Tx, a: string, b: string): Promise<void> {
  await tx
    .delete(friendRequests)
    .where(
      or(
        and(eq(friendRequests.requesterId, a), eq(friendRequests.addresseeId, b)),
        and(eq(friendRequests.requesterId, b), eq(friendRequests.addresseeId, a)),
      ),
    );
  await tx
    .insert(friendships)
    .values([
      { userId: a, friendId: b },
      { userId: b, friendId: a },
    ])
    .onConflictDoNothing();
}

/** Asks `other` to be friends; if they already asked the viewer, that is an acceptance. */
export async function requestFriendship(
  db: Db,
  viewer: string,
  other: string,
): Promise<FriendshipStatus> {
  if (viewer === other) throw new HttpError(400, 'You cannot send a friend request to yourself.');
  return db.transaction(async (tx) => {
    await lockPair(tx, viewer, other);
    const status = await statusInside(tx, viewer, other);
    if (status === 'friends' || status === 'pending_outgoing') return status;
    if (status === 'pending_incoming') {
      await befriend(tx, viewer, other);
      return 'friends';
    }
    await tx.insert(friendRequests).values({ requesterId: viewer, addresseeId: other });
    return 'pending_outgoing';
  });
}

export async function acceptFriendship(db: Db, viewer: string, other: string) {
  return db.transaction(async (tx) => {
    await lockPair(tx, viewer, other);
    const status = await statusInside(tx, viewer, other);
    if (status === 'friends') return status;
    if (status !== 'pending_incoming') {
      throw new HttpError(404, 'There is no friend request from this user to accept.');
    }
    await befriend(tx, viewer, other);
    return 'friends' as const;
  });
}

/** Declines an incoming request or cancels the viewer's own outgoing one. */
export async function declineFriendship(db: Db, viewer: string, other: string) {
  return db.transaction(async (tx) => {
    await lockPair(tx, viewer, other);
    const removed = await tx
      .delete(friendRequests)
      .where(
        or(
          and(eq(friendRequests.requesterId, viewer), eq(friendRequests.addresseeId, other)),
          and(eq(friendRequests.requesterId, other), eq(friendRequests.addresseeId, viewer)),
        ),
      )
      .returning();
    if (removed.length === 0) throw new HttpError(404, 'There is no friend request to decline.');
    return 'none' as const;
  });
}

export async function unfriend(db: Db, viewer: string, other: string) {
  return db.transaction(async (tx) => {
    await lockPair(tx, viewer, other);
    const removed = await tx
      .delete(friendships)
      .where(
        or(
          and(eq(friendships.userId, viewer), eq(friendships.friendId, other)),
          and(eq(friendships.userId, other), eq(friendships.friendId, viewer)),
        ),
      )
      .returning();
    if (removed.length === 0) throw new HttpError(404, 'You are not friends with this user.');
    return 'none' as const;
  });
}

/** The ids of the user's friends. */
/**
 * `SELECT id` of a user's friends, for statements that read them in place (a CTE or a subquery)
 * rather than as a list first: the one reader of `friendships` other services compose.
 */
export function friendIdsQuery(userId: string): SQL {
  return sql`SELECT friend_id AS id FROM friendships WHERE user_id = ${userId}::uuid`;
}

export async function friendIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: friendships.friendId })
    .from(friendships)
    .where(eq(friendships.userId, userId));
  return rows.map((row) => row.id);
}

export async function areFriends(db: Db, a: string, b: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: friendships.userId })
    .from(friendships)
    .where(and(eq(friendships.userId, a), eq(friendships.friendId, b)));
  return row !== undefined;
}

export async function incomingRequests(db: Db, viewer: string): Promise<PendingRequest[]> {
  const rows = await db
    .select({ id: users.id, name: users.name, username: users.username, picture: users.picture })
    .from(friendRequests)
    .innerJoin(users, eq(users.id, friendRequests.requesterId))
    .where(eq(friendRequests.addresseeId, viewer))
    .orderBy(desc(friendRequests.createdAt));
  return rows.map((user) => ({ user }));
}

/**
 * Friends and requests both ways, with each person's like count; the latest play only of
 * friends: when someone listens is for friends to see, not for anyone who sends a request.
 */
export async function friendList(db: Db, viewer: string): Promise<Friend[]> {
  const likes = countedLikes(sql`${users.id}`);
  const lastPlay = sql<
    string | null
  >`(SELECT max(${plays.playedAt}) FROM ${plays} WHERE ${plays.userId} = ${users.id})`;
  const person = {
    id: users.id,
    username: users.username,
    name: users.name,
    picture: users.picture,
    likes,
    lastPlay: sql<string | null>`NULL`,
  };
  const friend = { ...person, lastPlay };
  const [accepted, requested, pending] = await Promise.all([
    db
      .select(friend)
      .from(friendships)
      .innerJoin(users, eq(users.id, friendships.friendId))
      .where(eq(friendships.userId, viewer)),
    db
      .select(person)
      .from(friendRequests)
      .innerJoin(users, eq(users.id, friendRequests.addresseeId))
      .where(eq(friendRequests.requesterId, viewer)),
    db
      .select(person)
      .from(friendRequests)
      .innerJoin(users, eq(users.id, friendRequests.requesterId))
      .where(eq(friendRequests.addresseeId, viewer)),
  ]);
  const shape = (status: Friend['status']) => (row: (typeof accepted)[number]) => ({
    id: row.id,
    username: row.username,
    name: row.name,
    picture: row.picture,
    status,
    likes: row.likes,
    last_play: row.lastPlay ? new Date(row.lastPlay).toISOString() : null,
  });
  const byName = (a: Friend, b: Friend) => a.username.localeCompare(b.username);
  return [
    ...pending.map(shape('pending')).sort(byName),
    ...requested.map(shape('requested')).sort(byName),
    ...accepted.map(shape('accepted')).sort(byName),
  ];
}
