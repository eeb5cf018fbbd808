import type { PublicProfile } from '@earshot/contract/profile';
import type { DataChanges } from '../db/changes';
import type { Db } from '../db/client';
import type { UserRow } from '../db/schema/users';
import { HttpError } from '../errors';
import { ActivityPageCache } from './activity-cache';
import { friendshipStatus } from './social';
import { profileStats, tasteMatch } from './stats';
import { findUserByHandle } from './users';

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

/** The visitors' profiles also change with time ("last 30 days", weekly plays): a minute at most. */
const VISITOR_PROFILE_MAX_AGE_MS = 60_000;
/** Memory for visitors' profiles as sent (about 5 KB each). */
const VISITOR_PROFILE_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * `GET /api/user/:id/public` by handle. Anyone may look at a profile without logging in, often
 * many at once: for visitors it is kept as sent until its owner's data or the catalogue changes
 * (see decision 0011); signed-in viewers see friendship-dependent parts, read each time.
 */
export class PublicProfiles {
  readonly #db: Db;
  readonly #visitorPages: ActivityPageCache;

  /** `cached`: whether visitors' profiles are kept in memory at all. */
  constructor(db: Db, changes: DataChanges, cached: boolean) {
    this.#db = db;
    this.#visitorPages = new ActivityPageCache(
      changes,
      cached ? VISITOR_PROFILE_CACHE_BYTES : 0,
      VISITOR_PROFILE_MAX_AGE_MS,
    );
  }

  async #owner(handle: string): Promise<UserRow> {
    const user = await findUserByHandle(this.#db, handle);
    if (!user) throw new HttpError(404, 'Profile not found');
    return user;
  }

  async forViewer(handle: string, viewer: UserRow): Promise<PublicProfile> {
    return publicProfileOf(this.#db, await this.#owner(handle), viewer);
  }

  /** The visitor's profile as JSON text, and whether memory answered it. */
  forVisitor(handle: string) {
    let ownerId = '';
    return this.#visitorPages.page(
      handle.toLowerCase(),
      async () => {
        const owner = await this.#owner(handle);
        ownerId = owner.id;
        return JSON.stringify(await publicProfileOf(this.#db, owner, null));
      },
      async () => [ownerId],
    );
  }
}
