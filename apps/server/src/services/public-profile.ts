import type { PublicProfile } from '@earshot/contract/profile';
import type { Db } from '../db/client';
import type { UserRow } from '../db/schema/users';
import { friendshipStatus } from './social';
import { profileStats, tasteMatch } from './stats';

/**
 * A user's public profile as `viewer` sees it (null: a visitor): stats for everyone, the
 * highlights and the taste match for friends, the highlights for the owner.
 */
export async function publicProfileOf(
  db: Db,
  user: UserRow,
  viewer: UserRow | null,
): Promise<PublicProfile> {
  const friendship = viewer ? await friendshipStatus(db, viewer.id, user.id) : null;
  const isFriend = friendship === 'friends';
  return {
    user: {
      id: user.id,
      name: user.name,
      username: user.username,
      picture: user.picture,
      is_friend: isFriend,
    },
    friendship,
    taste_match: isFriend && viewer ? await tasteMatch(db, viewer.id, user.id) : null,
    stats: await profileStats(db, user.id, isFriend || friendship === 'self'),
  };
}
