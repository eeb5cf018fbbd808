/**
 * The channel on which the database's triggers announce committed writes (migration
 * `announce_changes`). Payloads: `<transaction id>|` then `u:<user id>,…` (what those users see
 * changed: their plays, friends, ignores, names, sessions), `l:<user id>,…` (their likes,
 * migration `likes_announced_apart`), `c` (the catalogue's shown fields) or `*`.
 */
export const CHANGES_CHANNEL = 'earshot_changes';

/**
 * The channel of live friend activity (migration `live_events`): comma-separated `live_events`
 * ids, or `n:<user id>` for a change of what the user plays now.
 */
export const LIVE_CHANNEL = 'earshot_live';

/** Beyond this many users stamped, forget them all and count it as a change of everything. */
const MAX_TRACKED_USERS = 200_000;
/**
 * Announcements taken in, remembered to ignore their copies: every listening connection hears
 * each one, within milliseconds of the others; this many is far more than arrive in that time.
 */
const REMEMBERED_ANNOUNCEMENTS = 10_000;

/**
 * What this process knows of committed writes, as versions. Each announcement advances a clock
 * and stamps what it names; a cached answer keeps the clock as it was before the answer was read
 * and stays good while nothing it depends on was stamped later.
 *
 * Every pooled connection listens, and PostgreSQL (and PGlite) deliver a transaction's own
 * announcements before its COMMIT returns: this process always reads its own writes. Other
 * processes' writes arrive on a dedicated listening connection moments after they commit; while
 * that connection is down nothing counts as known (`live` is false) and caches stand aside.
 */
export class DataChanges {
  #clock = 0;
  #users = new Map<string, number>();
  #likes = new Map<string, number>();
  #catalogue = 0;
  #everything = 0;
  #live: boolean;
  #heard = new Set<string>();
  #liveListeners = new Set<(payload: string) => void>();

  constructor(live = true) {
    this.#live = live;
  }

  /** Whether cached answers may be served: every committed write is being heard. */
  get live(): boolean {
    return this.#live;
  }

  /** The clock now: take it before reading what will be cached. */
  version(): number {
    return this.#clock;
  }

  /**
   * Whether anything an answer read at `version` depends on changed since: what `userIds` see,
   * the likes of `likesOf` (all of `userIds` unless given), and, with `catalogue`, the tracks,
   * albums and artists it shows.
   */
  changedSince(
    version: number,
    userIds: Iterable<string>,
    catalogue: boolean,
    likesOf: Iterable<string> = userIds,
  ): boolean {
    if (!this.#live || this.#everything > version) return true;
    if (catalogue && this.#catalogue > version) return true;
    for (const id of userIds) {
      if ((this.#users.get(id) ?? 0) > version) return true;
    }
    for (const id of likesOf) {
      if ((this.#likes.get(id) ?? 0) > version) return true;
    }
    return false;
  }

  /**
   * Takes in one announcement of the channel, once: the copies heard on other connections
   * arrive later, and stamping again then would drop answers read after the write as stale.
   */
  announce(payload: string): void {
    // A transaction may announce several things; each (transaction, what) counts once.
    if (this.#heard.has(payload)) return;
    if (this.#heard.size >= REMEMBERED_ANNOUNCEMENTS) this.#heard.clear();
    this.#heard.add(payload);
    const what = payload.slice(payload.indexOf('|') + 1);
    const stamp = ++this.#clock;
    if (what.startsWith('u:') || what.startsWith('l:')) {
      const stamped = what.startsWith('u:') ? this.#users : this.#likes;
      if (stamped.size >= MAX_TRACKED_USERS) {
        stamped.clear();
        this.#everything = stamp;
      }
      for (const id of what.slice(2).split(',')) stamped.set(id, stamp);
    } else if (what === 'c') {
      this.#catalogue = stamp;
    } else {
      this.#everything = stamp;
    }
  }

  /**
   * Calls `listener` with every announcement of the live channel as heard, copies included
   * (the listener tells copies apart by event id). Returns the unsubscribe.
   */
  onLive(listener: (payload: string) => void): () => void {
    this.#liveListeners.add(listener);
    return () => this.#liveListeners.delete(listener);
  }

  heardLive(payload: string): void {
    for (const listener of this.#liveListeners) listener(payload);
  }

  /** Listening stopped: announcements may be missed until `resumed`. */
  lost(): void {
    this.#live = false;
    this.#everything = ++this.#clock;
  }

  resumed(): void {
    this.#everything = ++this.#clock;
    this.#live = true;
  }
}
