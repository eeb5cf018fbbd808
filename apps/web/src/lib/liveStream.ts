import type { ActivityItem } from '@earshot/contract/activity';
import {
  liveFriendship,
  liveLike,
  liveNowPlaying,
  livePlay,
  liveReady,
  type LiveEventName,
  type LiveFriendship,
  type LiveLike,
  type LiveNowPlaying,
  type LiveReady,
} from '@earshot/contract/live';
import { LIVE_RETRY_MAX_MS, LIVE_RETRY_MIN_MS } from './constants';

/** The data of each event of `GET /api/live`. */
export interface LiveEventData {
  ready: LiveReady;
  play: ActivityItem;
  like: LiveLike;
  'now-playing': LiveNowPlaying;
  friendship: LiveFriendship;
}

const SCHEMAS: { [Name in LiveEventName]: { parse(data: unknown): LiveEventData[Name] } } = {
  ready: liveReady,
  play: livePlay,
  like: liveLike,
  'now-playing': liveNowPlaying,
  friendship: liveFriendship,
};

/**
 * `off`: not started, or the browser has no EventSource; `connecting`: the first attempt;
 * `live`: events arrive; `retrying`: the connection was lost and is tried again after a backoff.
 */
export type LiveStatus = 'off' | 'connecting' | 'live' | 'retrying';

type Listener<Name extends LiveEventName> = (data: LiveEventData[Name]) => void;

/**
 * The viewer's live activity stream, one per page: an EventSource on `/api/live` that is opened
 * again with a growing backoff when lost (the server's `retry:` alone would hammer a server
 * that is down), resuming after the last event seen. Also keeps what friends play now, since
 * those events arrive whatever page is shown.
 */
export class LiveStream {
  #source: EventSource | undefined;
  #status: LiveStatus = 'off';
  #attempt = 0;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #lastEventId: string | undefined;
  readonly #listeners = new Map<LiveEventName, Set<(data: never) => void>>();
  readonly #changeListeners = new Set<() => void>();
  #nowPlaying: readonly LiveNowPlaying[] = [];

  start = (): void => {
    if (this.#source || this.#retry || typeof EventSource === 'undefined') return;
    this.#setStatus('connecting');
    this.#connect();
  };

  stop = (): void => {
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#source?.close();
    this.#source = undefined;
    this.#attempt = 0;
    this.#nowPlaying = [];
    this.#setStatus('off');
  };

  on<Name extends LiveEventName>(name: Name, listener: Listener<Name>): () => void {
    let listeners = this.#listeners.get(name);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(name, listeners);
    }
    const added = listener as (data: never) => void;
    listeners.add(added);
    return () => listeners.delete(added);
  }

  /** For useSyncExternalStore: the status and what friends play. */
  subscribe = (listener: () => void): (() => void) => {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  };

  getStatus = (): LiveStatus => this.#status;

  /** Friends playing now, as last told. */
  getNowPlaying = (): readonly LiveNowPlaying[] => this.#nowPlaying;

  #connect(): void {
    const query = this.#lastEventId
      ? `?${new URLSearchParams({ last_event_id: this.#lastEventId }).toString()}`
      : '';
    const source = new EventSource(`/api/live${query}`);
    this.#source = source;
    for (const name of Object.keys(SCHEMAS) as LiveEventName[]) {
      source.addEventListener(name, (event) => this.#received(name, event as MessageEvent<string>));
    }
    source.addEventListener('error', () => {
      if (this.#source !== source) return;
      // Opened again by hand: the browser's own retry ignores any backoff.
      source.close();
      this.#source = undefined;
      const delay = Math.min(LIVE_RETRY_MIN_MS * 2 ** this.#attempt, LIVE_RETRY_MAX_MS);
      this.#attempt += 1;
      this.#setStatus('retrying');
      this.#retry = setTimeout(() => {
        this.#retry = undefined;
        this.#connect();
      }, delay);
    });
  }

  #received(name: LiveEventName, event: MessageEvent<string>): void {
    if (event.lastEventId) this.#lastEventId = event.lastEventId;
    let data: LiveEventData[typeof name];
    try {
      data = SCHEMAS[name].parse(JSON.parse(event.data));
    } catch {
      return;
    }
    if (name === 'ready') {
      this.#attempt = 0;
      this.#setStatus('live');
    } else if (name === 'now-playing') {
      this.#playing(data as LiveNowPlaying);
    } else if (name === 'friendship' && (data as LiveFriendship).status !== 'friends') {
      this.#nowPlaying = this.#nowPlaying.filter(
        (now) => now.user.id !== (data as LiveFriendship).user.id,
      );
      this.#emitChange();
    }
    for (const listener of this.#listeners.get(name) ?? []) {
      (listener as (value: typeof data) => void)(data);
    }
  }

  #playing(now: LiveNowPlaying): void {
    const others = this.#nowPlaying.filter((entry) => entry.user.id !== now.user.id);
    this.#nowPlaying = now.track && now.is_playing ? [...others, now] : others;
    this.#emitChange();
  }

  #setStatus(status: LiveStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    this.#emitChange();
  }

  #emitChange(): void {
    for (const listener of this.#changeListeners) listener();
  }
}
