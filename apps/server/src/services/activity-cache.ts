import { LRUCache } from 'lru-cache';
import type { DataChanges } from '../db/changes';

interface CachedPage {
  json: string;
  /** The users whose writes can change the page: the viewer and their friends. */
  dependsOn: string[];
  /** `changes.version()` before the page was read. */
  version: number;
}

/**
 * Feed pages as sent, per viewer and query, for as long as they are exact: a page is dropped
 * when the viewer or one of their friends plays, likes, ignores, renames or befriends, or the
 * catalogue's shown fields change (`DataChanges`). People reopen and scroll the same feed far
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
   * `dependsOn` names the users whose writes can change it (asked only when it is kept).
   */
  async page(
    key: string,
    read: () => Promise<string>,
    dependsOn: () => Promise<string[]>,
  ): Promise<{ json: string; result: 'hit' | 'miss' | 'bypass' }> {
    if (!this.#pages || !this.#changes.live) return { json: await read(), result: 'bypass' };
    const cached = this.#pages.get(key);
    if (cached && !this.#changes.changedSince(cached.version, cached.dependsOn, true)) {
      return { json: cached.json, result: 'hit' };
    }
    const version = this.#changes.version();
    const json = await read();
    this.#pages.set(key, { json, dependsOn: await dependsOn(), version });
    return { json, result: 'miss' };
  }
}
