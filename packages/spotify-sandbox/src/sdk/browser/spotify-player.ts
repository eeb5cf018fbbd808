/**
 * The sandbox's stand-in for `https://sdk.scdn.co/spotify-player.js`: browser code with the real
 * SDK's global API (`window.onSpotifyWebPlaybackSDKReady`, `Spotify.Player` and its events),
 * talking to the sandbox's `/sdk/devices` endpoints. The sandbox bundles it into one script at
 * start (`../bundle.ts`). It uses no eval, no inline handlers and no string timers, so it runs
 * under `script-src 'self'` when served from the page's origin.
 *
 * No audio is played: a player connected here is a silent Spotify Connect device. Its progress,
 * track changes and state come from the sandbox's player, which simulates them with its clock; the
 * page polls that state and hears of changes through 'player_state_changed'.
 */

/** The sandbox's public root URL, put in by the bundler. */
declare const SANDBOX_ROOT: string;

const POLL_INTERVAL_MS = 1000;

type PlayerEvent = Parameters<Spotify.Player['removeListener']>[0] | 'autoplay_failed';
type Listener =
  | Spotify.PlaybackInstanceListener
  | Spotify.PlaybackStateListener
  | Spotify.ErrorListener
  | Spotify.EmptyListener;

/** What the listeners of each event the stand-in emits are given. */
interface Payloads {
  ready: Spotify.WebPlaybackInstance;
  not_ready: Spotify.WebPlaybackInstance;
  // null when the device is no longer the active one, as with the real SDK.
  player_state_changed: Spotify.PlaybackState | null;
  initialization_error: Spotify.Error;
  authentication_error: Spotify.Error;
  account_error: Spotify.Error;
  playback_error: Spotify.Error;
}

const EVENTS = new Set<string>([
  'ready',
  'not_ready',
  'player_state_changed',
  'autoplay_failed',
  'initialization_error',
  'authentication_error',
  'account_error',
  'playback_error',
] satisfies PlayerEvent[]);

const MESSAGES = {
  initialization: 'Failed to initialize player',
  authentication: 'Authentication failed',
  scopes: 'Invalid token scopes.',
  account: 'This functionality is restricted to premium users only',
  playback: 'Playback failed',
};

/** What `GET /sdk/devices/:id/state` answers. */
interface DeviceState {
  state: Spotify.PlaybackState | null;
  revision: number;
  volume: number;
}

type PlaybackAction = 'pause' | 'resume' | 'toggle' | 'next' | 'previous' | 'seek';

const randomId = () => {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
};

// Pages are plain JavaScript too: volumes and names are coerced as the real SDK does.
const clampVolume = (volume: unknown) => {
  const number = Number(volume);
  return Number.isFinite(number) ? Math.min(1, Math.max(0, number)) : 1;
};

const errorReason = async (response: Response): Promise<string | undefined> => {
  try {
    const body = (await response.json()) as { error?: { reason?: string } } | null;
    return body && body.error ? body.error.reason : undefined;
  } catch {
    return undefined;
  }
};

class Player implements Spotify.Player {
  readonly _options: Spotify.PlayerInit & { id: string; volume: number };
  private readonly listeners = new Map<string, Set<Listener>>();
  private deviceId: string | null = null;
  private token: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  private connecting: Promise<boolean> | null = null;
  private stateKey: number | null = null;
  private lastState: Spotify.PlaybackState | null = null;
  private refreshing: Promise<Spotify.PlaybackState | null> = Promise.resolve(null);
  private readonly leaveOnPageHide = () => this.disconnect();

  constructor(options: Spotify.PlayerInit) {
    if (!options || typeof options.getOAuthToken !== 'function') {
      throw new TypeError('Spotify.Player needs options with a getOAuthToken function');
    }
    this._options = {
      ...options,
      name: String(options.name === undefined ? 'Web Playback SDK' : options.name),
      volume: clampVolume(options.volume === undefined ? 1 : options.volume),
      id: randomId(),
    };
  }

  connect(): Promise<boolean> {
    if (this.deviceId !== null) return Promise.resolve(true);
    if (this.connecting === null) {
      this.connecting = this.register().finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  disconnect(): void {
    const deviceId = this.deviceId;
    if (deviceId === null) return;
    this.stop();
    fetch(SANDBOX_ROOT + '/sdk/devices/' + encodeURIComponent(deviceId), {
      method: 'DELETE',
      keepalive: true,
      headers: { authorization: 'Bearer ' + this.token },
    }).catch(() => undefined);
  }

  addListener(event: PlayerEvent, callback: Listener): boolean {
    if (!EVENTS.has(event) || typeof callback !== 'function') return false;
    let callbacks = this.listeners.get(event);
    if (!callbacks) this.listeners.set(event, (callbacks = new Set()));
    callbacks.add(callback);
    return true;
  }

  on(event: PlayerEvent, callback: Listener): boolean {
    return this.addListener(event, callback);
  }

  removeListener(event: PlayerEvent, callback?: Listener): boolean {
    const callbacks = this.listeners.get(event);
    if (!callbacks) return false;
    if (callback === undefined) callbacks.clear();
    else callbacks.delete(callback);
    return true;
  }

  getCurrentState(): Promise<Spotify.PlaybackState | null> {
    if (this.deviceId === null) return Promise.resolve(null);
    return this.refresh();
  }

  setName(name: string): Promise<void> {
    this._options.name = String(name);
    return this.update({ name: this._options.name });
  }

  getVolume(): Promise<number> {
    return Promise.resolve(this._options.volume);
  }

  setVolume(volume: number): Promise<void> {
    this._options.volume = clampVolume(volume);
    return this.update({ volume: this._options.volume });
  }

  pause(): Promise<void> {
    return this.command('pause');
  }

  resume(): Promise<void> {
    return this.command('resume');
  }

  togglePlay(): Promise<void> {
    return this.command('toggle');
  }

  seek(positionMs: number): Promise<void> {
    return this.command('seek', Math.max(0, Math.round(Number(positionMs))));
  }

  previousTrack(): Promise<void> {
    return this.command('previous');
  }

  nextTrack(): Promise<void> {
    return this.command('next');
  }

  activateElement(): Promise<void> {
    // The real SDK unlocks its media element for autoplay here; with no audio there is none.
    return Promise.resolve();
  }

  private emit<E extends keyof Payloads>(event: E, payload: Payloads[E]): void {
    const callbacks = this.listeners.get(event);
    if (!callbacks) return;
    for (const callback of Array.from(callbacks)) {
      try {
        // addListener took it for this event, whose payload is this one.
        (callback as (payload: Payloads[E]) => void)(payload);
      } catch (error) {
        // A listener's error is reported as uncaught, without stopping the other listeners.
        setTimeout(() => {
          throw error;
        }, 0);
      }
    }
  }

  private fetchToken(): Promise<string> {
    return new Promise((resolve, reject) => {
      try {
        this._options.getOAuthToken((token) => resolve(token));
      } catch (error) {
        reject(error);
      }
    });
  }

  /**
   * A request to the sandbox with the current token; on 401 it asks the page for a fresh token
   * once, as the real SDK does when its token expires.
   */
  private async request(
    method: string,
    path: string,
    body?: object,
    fresh = false,
  ): Promise<Response> {
    if (this.token === null) this.token = await this.fetchToken();
    const headers: Record<string, string> = { authorization: 'Bearer ' + this.token };
    const init: RequestInit = { method, headers };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(SANDBOX_ROOT + path, init);
    if (response.status !== 401 || fresh) return response;
    this.token = await this.fetchToken();
    return this.request(method, path, body, true);
  }

  private async register(): Promise<boolean> {
    let response: Response;
    try {
      this.token = await this.fetchToken();
      const device = { name: this._options.name, volume: this._options.volume };
      response = await this.request('POST', '/sdk/devices', device, true);
    } catch {
      this.emit('initialization_error', { message: MESSAGES.initialization });
      return false;
    }
    if (response.status === 400 || response.status === 401) {
      this.emit('authentication_error', { message: MESSAGES.authentication });
      return false;
    }
    if (response.status === 403) {
      if ((await errorReason(response)) === 'PREMIUM_REQUIRED') {
        this.emit('account_error', { message: MESSAGES.account });
      } else {
        this.emit('authentication_error', { message: MESSAGES.scopes });
      }
      return false;
    }
    if (!response.ok) {
      this.emit('initialization_error', { message: MESSAGES.initialization });
      return false;
    }
    const { device_id: deviceId } = (await response.json()) as Spotify.WebPlaybackInstance;
    this.deviceId = deviceId;
    window.addEventListener('pagehide', this.leaveOnPageHide);
    this.emit('ready', { device_id: deviceId });
    this.schedule();
    return true;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.refresh().finally(() => {
        if (this.deviceId !== null) this.schedule();
      });
    }, POLL_INTERVAL_MS);
  }

  /** State requests run one after another, so events follow the order of the states. */
  private refresh(): Promise<Spotify.PlaybackState | null> {
    const next = () => this.fetchState();
    this.refreshing = this.refreshing.then(next, next);
    return this.refreshing;
  }

  private async fetchState(): Promise<Spotify.PlaybackState | null> {
    const deviceId = this.deviceId;
    if (deviceId === null) return null;
    let response: Response;
    try {
      response = await this.request(
        'GET',
        '/sdk/devices/' + encodeURIComponent(deviceId) + '/state',
      );
    } catch {
      return this.lastState;
    }
    if (deviceId !== this.deviceId) return null;
    if (response.status === 401) {
      this.stop();
      this.emit('authentication_error', { message: MESSAGES.authentication });
      return null;
    }
    if (response.status === 404) {
      // The sandbox dropped the device (the page was silent too long): reconnect, as the SDK does.
      this.stop();
      this.emit('not_ready', { device_id: deviceId });
      void this.connect();
      return null;
    }
    if (!response.ok) return this.lastState;
    const body = (await response.json()) as DeviceState;
    this._options.volume = body.volume;
    this.lastState = body.state;
    const key = body.state === null ? null : body.revision;
    if (key !== this.stateKey) {
      this.stateKey = key;
      this.emit('player_state_changed', body.state);
    }
    return body.state;
  }

  private async command(action: PlaybackAction, positionMs?: number): Promise<void> {
    const deviceId = this.deviceId;
    if (deviceId === null) return;
    const body = positionMs === undefined ? { action } : { action, position_ms: positionMs };
    try {
      const path = '/sdk/devices/' + encodeURIComponent(deviceId) + '/playback';
      const response = await this.request('PUT', path, body);
      if (!response.ok) throw new Error('HTTP ' + response.status);
    } catch {
      this.emit('playback_error', { message: MESSAGES.playback });
      return;
    }
    await this.refresh();
  }

  private async update(change: { name?: string; volume?: number }): Promise<void> {
    const deviceId = this.deviceId;
    if (deviceId === null) return;
    try {
      const path = '/sdk/devices/' + encodeURIComponent(deviceId);
      const response = await this.request('PUT', path, change);
      if (!response.ok) throw new Error('HTTP ' + response.status);
    } catch {
      this.emit('playback_error', { message: MESSAGES.playback });
    }
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.deviceId = null;
    this.stateKey = null;
    this.lastState = null;
    window.removeEventListener('pagehide', this.leaveOnPageHide);
  }
}

window.Spotify = { Player };

// Like the real SDK, announce readiness once loaded; pages define the callback beforehand.
setTimeout(() => {
  if (typeof window.onSpotifyWebPlaybackSDKReady !== 'function') {
    throw new Error('onSpotifyWebPlaybackSDKReady is not defined');
  }
  window.onSpotifyWebPlaybackSDKReady();
}, 0);
