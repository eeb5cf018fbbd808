import type { ActivityItem } from '@earshot/contract/activity';
import type {
  LiveDropped,
  LiveEventName,
  LiveFriendship,
  LiveLike,
  LiveNowPlaying,
  LiveReady,
} from '@earshot/contract/live';
import { LIVE_RETRY_MAX_MS, LIVE_RETRY_MIN_MS } from './constants';

/** The data of each event of `GET /api/live`. */
export interface LiveEventData {
  ready: LiveReady;
  play: ActivityItem;
  like: LiveLike;
  'now-playing': LiveNowPlaying;
  friendship: LiveFriendship;
  dropped: LiveDropped;
}

export type LiveEventSchemas = {
  [Name in LiveEventName]: { parse(data: unknown): LiveEventData[Name] };
};

/** The events' schemas (zod) load with the first stream, not on visitors' pages (decision 0023). */
const loadSchemas = () => import('./liveSchemas').then((module) => module.LIVE_EVENT_SCHEMAS);

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
  /** How long the server asked a dropped page to wait before coming back (0: no such ask). */
  #droppedRetryMs = 0;
  #lastEventId: string | undefined;
  readonly #listeners = new Map<LiveEventName, Set<(data: never) => void>>();
  readonly #changeListeners = new Set<() => void>();
  #nowPlaying: readonly LiveNowPlaying[] = [];
  #schemas: LiveEventSchemas | undefined;

  start = (): void => {
    if (this.#status !== 'off' || typeof EventSource === 'undefined') return;
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
    const schemas = this.#schemas;
    if (!schemas) {
      loadSchemas().then(
        (loaded) => {
          this.#schemas = loaded;
          // Unless stopped, or connected by another start, while they loaded.
          if (this.#status !== 'off' && !this.#source && !this.#retry) this.#connect();
        },
        () => {
          if (this.#status !== 'off' && !this.#source && !this.#retry) this.#lost();
        },
      );
      return;
    }
    const query = this.#lastEventId
      ? `?${new URLSearchParams({ last_event_id: this.#lastEventId }).toString()}`
      : '';
    const source = new EventSource(`/api/live${query}`);
    this.#source = source;
    for (const name of Object.keys(schemas) as LiveEventName[]) {
      source.addEventListener(name, (event) =>
        this.#received(schemas, name, event as MessageEvent<string>),
      );
    }
    source.addEventListener('error', () => {
      if (this.#source !== source) return;
      // Opened again by hand: the browser's own retry ignores any backoff.
      source.close();
      this.#source = undefined;
      this.#lost();
    });
  }

  /** The stream (or its schemas' chunk) could not be had: try again after a backoff. */
  #lost(): void {
    // A server that dropped this page for reading too slowly said when to come back.
    const delay = Math.max(
      Math.min(LIVE_RETRY_MIN_MS * 2 ** this.#attempt, LIVE_RETRY_MAX_MS),
      this.#droppedRetryMs,
    );
    this.#droppedRetryMs = 0;
    this.#attempt += 1;
    this.#setStatus('retrying');
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#connect();
    }, delay);
  }

  #received(schemas: LiveEventSchemas, name: LiveEventName, event: MessageEvent<string>): void {
    if (event.lastEventId) this.#lastEventId = event.lastEventId;
    let data: LiveEventData[typeof name];
    try {
      data = schemas[name].parse(JSON.parse(event.data));
    } catch {
      return;
    }
    if (name === 'ready') {
      this.#attempt = 0;
      this.#setStatus('live');
    } else if (name === 'dropped') {
      this.#droppedRetryMs = (data as LiveDropped).retry_ms;
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

  /**
   * A friend's new state: in their place if already shown (a new track must not reorder the strip
   * under the reader's eyes), else last; dropped when they stopped.
   */
  #playing(now: LiveNowPlaying): void {
    const playing = now.track !== null && now.is_playing;
    const at = this.#nowPlaying.findIndex((entry) => entry.user.id === now.user.id);
    if (at === -1) {
      if (playing) this.#nowPlaying = [...this.#nowPlaying, now];
    } else if (playing) {
      this.#nowPlaying = this.#nowPlaying.map((entry, index) => (index === at ? now : entry));
    } else {
      this.#nowPlaying = this.#nowPlaying.filter((_, index) => index !== at);
    }
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
