import type { ActivityItem } from '@earshot/contract/activity';
import type { FriendshipStatus } from '@earshot/contract/friendship';
import {
  LIVE_REPLAY_MINUTES,
  type LiveEventName,
  type LiveFriendship,
  type LiveLike,
  type LiveNowPlaying,
} from '@earshot/contract/live';
import type { TrackSummary } from '@earshot/contract/track';
import { sql, type SQL } from 'drizzle-orm';
import type { DataChanges } from '../db/changes';
import type { Db } from '../db/client';
import type { Metrics } from '../observability/metrics';
import { friendIds } from './social';
import { trackSummaries } from './tracks';

/** Where a stream's bytes go: the HTTP response, as far as the hub needs it. */
export interface LiveSink {
  write(chunk: string): boolean;
  end(chunk?: string): void;
  destroy(): void;
  readonly writableLength: number;
  once(event: 'close', listener: () => void): unknown;
}

export interface LiveSettings {
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** A client that leaves more than this unread is dropped (with a retry hint). */
  maxBufferedBytes: number;
  /** The `retry:` a stream opens with, and the longer one a dropped client is told. */
  retryMs: number;
  dropRetryMs: number;
}

/** At most this many events are replayed; a longer gap is `missed` and the page reloads. */
const MAX_REPLAY = 500;
/** Events are kept a little past the replay window, then removed (every minute). */
const KEEP_MINUTES = LIVE_REPLAY_MINUTES + 5;
const PRUNE_MS = 60_000;
/** Ids taken in, remembered to skip the copies heard on the process's other connections. */
const REMEMBERED_IDS = 10_000;
/** A friend counts as playing now while their state was checked this recently. */
const NOW_PLAYING_FRESH_SEC = 90;

/** A `live_events` row with what every viewer's copy shares. */
interface EventRow extends Record<string, unknown> {
  id: number | string;
  kind: 'play' | 'like' | 'unlike' | 'friendship';
  user_id: string;
  username: string | null;
  name: string | null;
  track_id: string | null;
  uid: string | null;
  happened_at: Date | string | null;
  context_uri: string | null;
  play_count: number | null;
  is_global: boolean | null;
  other_id: string | null;
  other_username: string | null;
  other_name: string | null;
  status: FriendshipStatus | null;
}

interface EventBatch {
  rows: EventRow[];
  tracks: Map<string, TrackSummary>;
}

const NO_EVENTS: EventBatch = { rows: [], tracks: new Map() };

interface Stream {
  viewerId: string;
  sink: LiveSink;
  /** The id of the newest log event sent: what the browser sends back on reconnect. */
  lastId: number;
  /** Events with an id up to this were read by the stream's opening (replay), not live. */
  openedAt: number;
  closed: boolean;
}

function sse(event: LiveEventName, id: number, data: unknown): string {
  return `event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The live streams of this process (`GET /api/live`). The database writes what happens to
 * `live_events` and announces the ids on `earshot_live` (migration `live_events`); every process
 * hears every announcement, reads the rows once per batch and sends each viewer the events of the
 * people they may see: themselves and their friends, and friendship changes addressed to them.
 *
 * Announcements are handled one batch at a time, in order, and a stream opens inside that same
 * order: an unfriend is applied before any later play is fanned out, and a stream's replay and
 * its live events neither overlap nor leave a gap.
 */
export class LiveHub {
  readonly #db: Db;
  readonly #metrics: Metrics;
  readonly #settings: LiveSettings;
  readonly #streams = new Map<string, Set<Stream>>();
  /** Connected viewers' friends, and its reverse: whose streams show a user's activity. */
  readonly #friendsOf = new Map<string, Set<string>>();
  readonly #watchers = new Map<string, Set<string>>();
  readonly #pendingIds = new Set<number>();
  readonly #pendingNowPlaying = new Set<string>();
  readonly #seen = new Set<number>();
  #queue: Promise<void> = Promise.resolve();
  #drainQueued = false;
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #unsubscribe: () => void;
  readonly #log: (error: unknown) => void;

  constructor(deps: {
    db: Db;
    changes: DataChanges;
    metrics: Metrics;
    settings: LiveSettings;
    log: (error: unknown) => void;
  }) {
    this.#db = deps.db;
    this.#metrics = deps.metrics;
    this.#settings = deps.settings;
    this.#log = deps.log;
    this.#unsubscribe = deps.changes.onLive((payload) => this.#heard(payload));
    const heartbeat = setInterval(() => this.#heartbeat(), this.#settings.heartbeatMs);
    const prune = setInterval(() => void this.#prune(), PRUNE_MS);
    heartbeat.unref();
    prune.unref();
    this.#timers.push(heartbeat, prune);
    // What expired while no process ran goes at once, not a minute later.
    void this.#prune();
  }

  /** Users with at least one friend's stream open here: whose now playing is worth asking. */
  watchedUsers(): string[] {
    return [...this.#watchers.keys()];
  }

  get openStreams(): number {
    let count = 0;
    for (const streams of this.#streams.values()) count += streams.size;
    return count;
  }

  /** Ends every stream (the server is stopping); clients reconnect elsewhere. */
  async stop(): Promise<void> {
    this.#unsubscribe();
    for (const timer of this.#timers) clearInterval(timer);
    for (const streams of [...this.#streams.values()]) {
      for (const stream of streams) this.#close(stream, 'retry: 1000\n\n');
    }
    await this.#queue;
  }

  /**
   * Opens the viewer's stream on `sink` (headers already sent): replays what they missed since
   * `lastEventId` (the last 10 minutes at most), then `ready`, then what they may see happen.
   */
  open(viewerId: string, sink: LiveSink, lastEventId: string | undefined): Promise<void> {
    sink.write(`retry: ${this.#settings.retryMs}\n\n`);
    const stream: Stream = { viewerId, sink, lastId: 0, openedAt: 0, closed: false };
    sink.once('close', () => this.#forget(stream));
    return this.#enqueue(() => this.#openInOrder(stream, lastEventId));
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch((error: unknown) => this.#log(error));
    return run;
  }

  async #openInOrder(stream: Stream, lastEventId: string | undefined) {
    const { viewerId } = stream;
    const [friends, newest] = await Promise.all([
      friendIds(this.#db, viewerId),
      this.#db.execute<{ id: string | null }>(sql`SELECT max(id) AS id FROM live_events`),
    ]);
    const cursor = Number(newest.rows[0]?.id ?? 0);
    stream.lastId = cursor;
    stream.openedAt = cursor;
    const replay =
      lastEventId === undefined
        ? { events: NO_EVENTS, missed: false }
        : await this.#replay(viewerId, friends, lastEventId, cursor);
    // The client went away while the stream opened.
    if (stream.closed) return;
    this.#register(stream, friends);
    const flags = await this.#viewerFlags(
      replay.events.rows.flatMap((row) => (row.uid === null ? [] : [[viewerId, row.uid] as const])),
    );
    for (const row of replay.events.rows) {
      this.#sendEvent(stream, row, replay.events.tracks, flags, false);
    }
    this.#send(stream, sse('ready', stream.lastId, { missed: replay.missed }));
    await this.#sendNowPlayingOf(stream, friends);
  }

  /** The viewer's events after `lastEventId`, up to `cursor`, if the gap is still kept. */
  async #replay(viewerId: string, friends: string[], lastEventId: string, cursor: number) {
    const last = /^\d{1,18}$/.test(lastEventId) ? Number(lastEventId) : undefined;
    if (last === undefined) return { events: NO_EVENTS, missed: true };
    if (last >= cursor) return { events: NO_EVENTS, missed: false };
    const kept = await this.#db.execute(sql`
      SELECT 1 FROM live_events
      WHERE id = ${last} AND at > now() - ${`${LIVE_REPLAY_MINUTES} minutes`}::interval`);
    if (last > 0 && kept.rows.length === 0) return { events: NO_EVENTS, missed: true };
    const people = [viewerId, ...friends];
    const events = await this.#readEvents(sql`
      e.id > ${last} AND e.id <= ${cursor}
      AND e.at > now() - ${`${LIVE_REPLAY_MINUTES} minutes`}::interval
      AND ((e.kind <> 'friendship' AND e.user_id = ANY(${sql.param(people)}::uuid[]))
           OR (e.kind = 'friendship' AND e.user_id = ${viewerId}))
      ORDER BY e.id LIMIT ${MAX_REPLAY + 1}`);
    if (events.rows.length > MAX_REPLAY) return { events: NO_EVENTS, missed: true };
    return { events, missed: false };
  }

  #register(stream: Stream, friends: string[]): void {
    const { viewerId } = stream;
    let streams = this.#streams.get(viewerId);
    if (!streams) {
      streams = new Set();
      this.#streams.set(viewerId, streams);
      this.#friendsOf.set(viewerId, new Set(friends));
      for (const friend of friends) this.#watch(viewerId, friend);
    }
    streams.add(stream);
    this.#metrics.liveStreams.inc();
  }

  #watch(viewerId: string, friendId: string): void {
    let watchers = this.#watchers.get(friendId);
    if (!watchers) {
      watchers = new Set();
      this.#watchers.set(friendId, watchers);
    }
    watchers.add(viewerId);
  }

  #unwatch(viewerId: string, friendId: string): void {
    const watchers = this.#watchers.get(friendId);
    watchers?.delete(viewerId);
    if (watchers?.size === 0) this.#watchers.delete(friendId);
  }

  #forget(stream: Stream): void {
    stream.closed = true;
    // Forgotten already (or never registered): nothing to undo.
    const streams = this.#streams.get(stream.viewerId);
    if (!streams?.delete(stream)) return;
    this.#metrics.liveStreams.dec();
    if (streams.size > 0) return;
    this.#streams.delete(stream.viewerId);
    for (const friend of this.#friendsOf.get(stream.viewerId) ?? []) {
      this.#unwatch(stream.viewerId, friend);
    }
    this.#friendsOf.delete(stream.viewerId);
  }

  #close(stream: Stream, last: string): void {
    this.#forget(stream);
    stream.sink.end(last);
  }

  /** Writes to a stream unless its client stopped reading: then it is dropped, told to come back later. */
  #send(stream: Stream, text: string): void {
    if (stream.closed) return;
    if (stream.sink.writableLength > this.#settings.maxBufferedBytes) {
      this.#metrics.liveDropped.inc();
      const retry = this.#settings.dropRetryMs;
      this.#close(stream, `event: dropped\ndata: {"retry_ms":${retry}}\nretry: ${retry}\n\n`);
      // A client that reads nothing would keep even that last line: the socket goes.
      setTimeout(() => stream.sink.destroy(), 5_000).unref();
      return;
    }
    stream.sink.write(text);
  }

  #heartbeat(): void {
    for (const streams of [...this.#streams.values()]) {
      for (const stream of [...streams]) this.#send(stream, ':\n\n');
    }
  }

  #heard(payload: string): void {
    if (payload.startsWith('n:')) {
      this.#pendingNowPlaying.add(payload.slice(2));
    } else {
      for (const part of payload.split(',')) {
        const id = Number(part);
        if (!Number.isSafeInteger(id) || this.#seen.has(id)) continue;
        if (this.#seen.size >= REMEMBERED_IDS) this.#seen.clear();
        this.#seen.add(id);
        this.#pendingIds.add(id);
      }
    }
    if (this.#drainQueued) return;
    this.#drainQueued = true;
    void this.#enqueue(() => this.#drain());
  }

  /** Fans out everything announced since the last batch. */
  async #drain(): Promise<void> {
    this.#drainQueued = false;
    // In any order: the events are read in id order.
    const ids = [...this.#pendingIds];
    const nowPlaying = [...this.#pendingNowPlaying];
    this.#pendingIds.clear();
    this.#pendingNowPlaying.clear();
    if (ids.length > 0 && this.#streams.size > 0) await this.#fanOut(ids);
    if (nowPlaying.length > 0 && this.#streams.size > 0) await this.#fanOutNowPlaying(nowPlaying);
  }

  async #fanOut(ids: number[]): Promise<void> {
    const { rows, tracks } = await this.#readEvents(
      sql`e.id = ANY(${sql.param(ids)}::bigint[]) ORDER BY e.id`,
    );
    // Friendship changes split the batch: the events after one go to the friends it leaves.
    let segment: EventRow[] = [];
    const flush = async () => {
      if (segment.length === 0) return;
      const targets = segment.map((row) => this.#audience(row));
      const flags = await this.#viewerFlags(
        segment.flatMap((row, index) =>
          row.uid === null ? [] : targets[index]!.map((viewer) => [viewer, row.uid!] as const),
        ),
      );
      segment.forEach((row, index) => {
        for (const viewer of targets[index]!) {
          for (const stream of this.#streams.get(viewer) ?? []) {
            this.#sendEvent(stream, row, tracks, flags, true);
          }
        }
      });
      segment = [];
    };
    for (const row of rows) {
      if (row.kind !== 'friendship') {
        segment.push(row);
        continue;
      }
      await flush();
      this.#applyFriendship(row);
      for (const stream of this.#streams.get(row.user_id) ?? []) {
        this.#sendEvent(stream, row, tracks, new Map(), true);
      }
    }
    await flush();
  }

  /** Connected viewers who may see what `row.user_id` did: themselves and their friends. */
  #audience(row: EventRow): string[] {
    const viewers = [...(this.#watchers.get(row.user_id) ?? [])];
    if (this.#streams.has(row.user_id)) viewers.push(row.user_id);
    return viewers;
  }

  #applyFriendship(row: EventRow): void {
    const friends = this.#friendsOf.get(row.user_id);
    if (!friends || row.other_id === null) return;
    if (row.status === 'friends') {
      friends.add(row.other_id);
      this.#watch(row.user_id, row.other_id);
    } else if (friends.delete(row.other_id)) {
      this.#unwatch(row.user_id, row.other_id);
    }
  }

  /** `live`: fanned out as announced (else replayed by the stream's opening). */
  #sendEvent(
    stream: Stream,
    row: EventRow,
    tracks: Map<string, TrackSummary>,
    flags: Map<string, ViewerFlags>,
    live: boolean,
  ): void {
    const id = Number(row.id);
    if (live) {
      // Committed before the stream opened: not its business (or replayed already).
      if (id <= stream.openedAt) return;
      stream.lastId = Math.max(stream.lastId, id);
    }
    if (row.kind === 'friendship') {
      if (!row.other_id || !row.other_username || !row.status) return;
      const data: LiveFriendship = {
        user: { id: row.other_id, username: row.other_username, name: row.other_name ?? '' },
        status: row.status,
      };
      this.#send(stream, sse('friendship', id, data));
      this.#metrics.liveEvents.inc({ event: 'friendship' });
      return;
    }
    const track = row.track_id ? tracks.get(row.track_id) : undefined;
    const item = track && this.#item(row, track, flags.get(`${stream.viewerId}|${row.uid}`));
    if (!item) return;
    if (row.kind === 'play') {
      this.#send(stream, sse('play', id, item));
    } else {
      const data: LiveLike = { ...item, unliked: row.kind === 'unlike' };
      this.#send(stream, sse('like', id, data));
    }
    this.#metrics.liveEvents.inc({ event: row.kind === 'play' ? 'play' : 'like' });
  }

  #item(
    row: EventRow,
    track: TrackSummary,
    flags: ViewerFlags | undefined,
  ): ActivityItem | undefined {
    if (!row.username || row.happened_at === null) return undefined;
    return {
      user: { id: row.user_id, username: row.username, name: row.name ?? '' },
      track,
      liked: flags?.liked ?? false,
      date: new Date(row.happened_at).toISOString(),
      play_count: row.play_count ?? 0,
      reason: null,
      context_uri: row.context_uri,
      is_global: row.is_global ?? false,
      reported: flags?.reported ?? false,
    };
  }

  /** Events with what every viewer's copy shares (people, track, play count, global ignore). */
  async #readEvents(where: SQL): Promise<EventBatch> {
    const result = await this.#db.execute<EventRow>(sql`
      SELECT e.id, e.kind, e.user_id, u.username, u.name, e.track_id, t.uid, e.happened_at,
             e.context_uri, s.plays AS play_count,
             EXISTS (SELECT 1 FROM global_ignored_tracks g WHERE g.uid = t.uid) AS is_global,
             e.other_id, o.username AS other_username, o.name AS other_name, e.status
      FROM live_events e
      LEFT JOIN users u ON u.id = e.user_id
      LEFT JOIN users o ON o.id = e.other_id
      LEFT JOIN tracks t ON t.id = e.track_id
      LEFT JOIN user_track_stats s ON s.user_id = e.user_id AND s.track_id = e.track_id
      WHERE ${where}`);
    const trackIds = new Set(result.rows.flatMap((row) => (row.track_id ? [row.track_id] : [])));
    return { rows: result.rows, tracks: await trackSummaries(this.#db, [...trackIds]) };
  }

  /** For each (viewer, song): whether the viewer likes it and reported it. */
  async #viewerFlags(pairs: (readonly [string, string])[]): Promise<Map<string, ViewerFlags>> {
    if (pairs.length === 0) return new Map();
    const result = await this.#db.execute<{ viewer: string; uid: string } & ViewerFlags>(sql`
      SELECT p.viewer, p.uid,
             EXISTS (SELECT 1 FROM tracks v JOIN saved_tracks st ON st.track_id = v.id
                     WHERE v.uid = p.uid AND st.user_id = p.viewer) AS liked,
             EXISTS (SELECT 1 FROM ignored_tracks i
                     WHERE i.user_id = p.viewer AND i.uid = p.uid AND i.reported) AS reported
      FROM unnest(${sql.param(pairs.map(([viewer]) => viewer))}::uuid[],
                  ${sql.param(pairs.map(([, uid]) => uid))}::text[]) AS p(viewer, uid)`);
    return new Map(
      result.rows.map((row) => [
        `${row.viewer}|${row.uid}`,
        { liked: row.liked, reported: row.reported },
      ]),
    );
  }

  async #fanOutNowPlaying(userIds: string[]): Promise<void> {
    const watched = userIds.filter((id) => this.#watchers.has(id));
    if (watched.length === 0) return;
    for (const data of await this.#readNowPlaying(watched, false)) {
      for (const viewer of this.#watchers.get(data.user.id) ?? []) {
        for (const stream of this.#streams.get(viewer) ?? []) {
          this.#send(stream, sse('now-playing', stream.lastId, data));
          this.#metrics.liveEvents.inc({ event: 'now-playing' });
        }
      }
    }
  }

  async #sendNowPlayingOf(stream: Stream, friends: string[]): Promise<void> {
    if (friends.length === 0) return;
    for (const data of await this.#readNowPlaying(friends, true)) {
      this.#send(stream, sse('now-playing', stream.lastId, data));
    }
  }

  /** What users play, as last seen; `playingOnly`: only those playing now. */
  async #readNowPlaying(userIds: string[], playingOnly: boolean): Promise<LiveNowPlaying[]> {
    const result = await this.#db.execute<{
      user_id: string;
      username: string;
      name: string;
      track_id: string | null;
      is_playing: boolean;
      progress_ms: number | null;
      observed_at: Date | string | null;
    }>(sql`
      SELECT n.user_id, u.username, u.name, n.track_id, n.is_playing, n.progress_ms, n.observed_at
      FROM now_playing n JOIN users u ON u.id = n.user_id
      WHERE n.user_id = ANY(${sql.param(userIds)}::uuid[])
        AND (NOT ${playingOnly} OR (n.is_playing AND n.track_id IS NOT NULL
             AND n.checked_at > now() - ${`${NOW_PLAYING_FRESH_SEC} seconds`}::interval))`);
    const tracks = await trackSummaries(
      this.#db,
      result.rows.flatMap((row) => (row.track_id ? [row.track_id] : [])),
    );
    return result.rows.map((row) => {
      const track = (row.track_id && tracks.get(row.track_id)) || null;
      return {
        user: { id: row.user_id, username: row.username, name: row.name },
        track,
        is_playing: track !== null && row.is_playing,
        progress_ms: track ? row.progress_ms : null,
        observed_at: track && row.observed_at ? new Date(row.observed_at).toISOString() : null,
      };
    });
  }

  /** Removes events past the replay window (every process does; it is idempotent). */
  async #prune(): Promise<void> {
    await this.#db
      .execute(
        sql`DELETE FROM live_events WHERE at < now() - ${`${KEEP_MINUTES} minutes`}::interval`,
      )
      .catch((error: unknown) => this.#log(error));
  }
}

type ViewerFlags = {
  liked: boolean;
  reported: boolean;
};
