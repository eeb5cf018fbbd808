import { LRUCache } from 'lru-cache';
import type { DataChanges } from '../db/changes';
import type { Db } from '../db/client';
import type { UserRow } from '../db/schema/users';
import { likedActivity, recentActivity, type ActivityParams } from './activity';
import { friendIds } from './social';

interface CachedPage {
  json: string;
  /** The users whose writes can change the page: the viewer and their friends. */
  dependsOn: string[];
  /** Those of them whose likes the page shows; all of them when undefined. */
  likesOf: readonly string[] | undefined;
  /** `changes.version()` before the page was read. */
  version: number;
}

/**
 * Feed pages as sent, per viewer and query, for as long as they are exact: a page is dropped
 * when the viewer or one of their friends plays, ignores, renames or befriends, likes (if the
 * page shows that user's likes), or the catalogue's shown fields change (`DataChanges`). People reopen and scroll the same feed far
 * more often than their friends finish a song; a page from memory costs no database work.
 */
export class ActivityPageCache {
  readonly #changes: DataChanges;
  readonly #pages: LRUCache<string, CachedPage> | undefined;

  /** `maxAgeMs`: for answers that also change with time (e.g. "the last 30 days"); 0: none. */
  constructor(changes: DataChanges, maxBytes: number, maxAgeMs = 0) {
    this.#changes = changes;
    this.#pages =
      maxBytes > 0
        ? new LRUCache<string, CachedPage>({
            maxSize: maxBytes,
            ttl: maxAgeMs,
            // UTF-16 in memory, plus the ids and the entry itself.
            sizeCalculation: (page) => page.json.length * 2 + page.dependsOn.length * 80 + 200,
          })
        : undefined;
  }

  /**
   * The page under `key`, from memory when nothing it shows changed, else from `read`;
   * `dependsOn` names the users whose writes can change it (asked only when it is kept), and
   * `likesOf` those of them whose likes it shows (all of them when not given).
   */
  async page(
    key: string,
    read: () => Promise<string>,
    dependsOn: () => Promise<string[]>,
    likesOf?: readonly string[],
  ): Promise<{ json: string; result: 'hit' | 'miss' | 'bypass' }> {
    if (!this.#pages || !this.#changes.live) return { json: await read(), result: 'bypass' };
    const cached = this.#pages.get(key);
    if (
      cached &&
      !this.#changes.changedSince(cached.version, cached.dependsOn, true, cached.likesOf)
    ) {
      return { json: cached.json, result: 'hit' };
    }
    const version = this.#changes.version();
    const json = await read();
    this.#pages.set(key, { json, dependsOn: await dependsOn(), likesOf, version });
    return { json, result: 'miss' };
  }
}

export type ActivityFeed = 'recent' | 'likes';

/** `GET /api/recent` and `GET /api/likes` pages as sent, kept while exact (`ActivityPageCache`). */
export class ActivityFeeds {
  readonly #db: Db;
  readonly #cache: ActivityPageCache;

  constructor(db: Db, changes: DataChanges, maxBytes: number) {
    this.#db = db;
    this.#cache = new ActivityPageCache(changes, maxBytes);
  }

  page(viewer: UserRow, feed: ActivityFeed, params: ActivityParams) {
    const { limit, before, includeMe, user, q } = params;
    const key = JSON.stringify([viewer.id, feed, limit, before, includeMe, user, q]);
    const read = feed === 'recent' ? recentActivity : likedActivity;
    return this.#cache.page(
      key,
      async () => JSON.stringify(await read(this.#db, viewer, params)),
      // Whatever the scope, only the viewer's and their friends' writes can change the page.
      async () => [viewer.id, ...(await friendIds(this.#db, viewer.id))],
      // Recent plays show only the viewer's own likes (`liked`): friends' likes leave them as they are.
      feed === 'recent' ? [viewer.id] : undefined,
    );
  }
}
