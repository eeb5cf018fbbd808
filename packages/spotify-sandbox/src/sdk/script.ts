/**
 * The sandbox's stand-in for `https://sdk.scdn.co/spotify-player.js`: plain browser JavaScript with
 * the real SDK's global API (`window.onSpotifyWebPlaybackSDKReady`, `Spotify.Player` and its
 * events), talking to the sandbox's `/sdk/devices` endpoints. It uses no eval, no inline handlers
 * and no string timers, so it runs under `script-src 'self'` when served from the page's origin.
 */
export function sdkScript(sandboxRoot: string): string {
  return `(() => {
  'use strict';

  // No audio is played: a player connected here is a silent Spotify Connect device. Its progress,
  // track changes and state come from the sandbox's player, which simulates them with its clock;
  // the page polls that state and hears of changes through 'player_state_changed'.
  const ROOT = ${scriptString(sandboxRoot)};
  const POLL_INTERVAL_MS = 1000;
  const EVENTS = new Set([
    'ready',
    'not_ready',
    'player_state_changed',
    'autoplay_failed',
    'initialization_error',
    'authentication_error',
    'account_error',
    'playback_error',
  ]);
  const MESSAGES = {
    initialization: 'Failed to initialize player',
    authentication: 'Authentication failed',
    scopes: 'Invalid token scopes.',
    account: 'This functionality is restricted to premium users only',
    playback: 'Playback failed',
  };

  const randomId = () => {
    const bytes = new Uint8Array(20);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  };

  const clampVolume = (volume) => {
    const number = Number(volume);
    return Number.isFinite(number) ? Math.min(1, Math.max(0, number)) : 1;
  };

  const errorReason = async (response) => {
    try {
      const body = await response.json();
      return body && body.error ? body.error.reason : undefined;
    } catch (error) {
      return undefined;
    }
  };

  class Player {
    constructor(options) {
      if (!options || typeof options.getOAuthToken !== 'function') {
        throw new TypeError('Spotify.Player needs options with a getOAuthToken function');
      }
      this._options = Object.assign({}, options, {
        name: String(options.name === undefined ? 'Web Playback SDK' : options.name),
        volume: clampVolume(options.volume === undefined ? 1 : options.volume),
        id: randomId(),
      });
      this._listeners = new Map();
      this._deviceId = null;
      this._token = null;
      this._timer = null;
      this._connecting = null;
      this._stateKey = null;
      this._lastState = null;
      this._refreshing = Promise.resolve(null);
      this._onPageHide = () => this.disconnect();
    }

    connect() {
      if (this._deviceId !== null) return Promise.resolve(true);
      if (this._connecting === null) {
        this._connecting = this._register().finally(() => {
          this._connecting = null;
        });
      }
      return this._connecting;
    }

    disconnect() {
      const deviceId = this._deviceId;
      if (deviceId === null) return;
      this._stop();
      fetch(ROOT + '/sdk/devices/' + encodeURIComponent(deviceId), {
        method: 'DELETE',
        keepalive: true,
        headers: { authorization: 'Bearer ' + this._token },
      }).catch(() => undefined);
    }

    addListener(event, callback) {
      if (!EVENTS.has(event) || typeof callback !== 'function') return false;
      if (!this._listeners.has(event)) this._listeners.set(event, new Set());
      this._listeners.get(event).add(callback);
      return true;
    }

    on(event, callback) {
      return this.addListener(event, callback);
    }

    removeListener(event, callback) {
      const callbacks = this._listeners.get(event);
      if (!callbacks) return false;
      if (callback === undefined) callbacks.clear();
      else callbacks.delete(callback);
      return true;
    }

    getCurrentState() {
      if (this._deviceId === null) return Promise.resolve(null);
      return this._refresh();
    }

    setName(name) {
      this._options.name = String(name);
      return this._update({ name: this._options.name });
    }

    getVolume() {
      return Promise.resolve(this._options.volume);
    }

    setVolume(volume) {
      this._options.volume = clampVolume(volume);
      return this._update({ volume: this._options.volume });
    }

    pause() {
      return this._command('pause');
    }

    resume() {
      return this._command('resume');
    }

    togglePlay() {
      return this._command('toggle');
    }

    seek(positionMs) {
      return this._command('seek', Math.max(0, Math.round(Number(positionMs))));
    }

    previousTrack() {
      return this._command('previous');
    }

    nextTrack() {
      return this._command('next');
    }

    activateElement() {
      // The real SDK unlocks its media element for autoplay here; with no audio there is none.
      return Promise.resolve();
    }

    _emit(event, payload) {
      const callbacks = this._listeners.get(event);
      if (!callbacks) return;
      for (const callback of Array.from(callbacks)) {
        try {
          callback(payload);
        } catch (error) {
          setTimeout(() => {
            throw error;
          }, 0);
        }
      }
    }

    _fetchToken() {
      return new Promise((resolve, reject) => {
        try {
          this._options.getOAuthToken((token) => resolve(token));
        } catch (error) {
          reject(error);
        }
      });
    }

    // A request to the sandbox with the current token; on 401 it asks the page for a fresh token
    // once, as the real SDK does when its token expires.
    async _request(method, path, body, fresh) {
      if (this._token === null) this._token = await this._fetchToken();
      const init = { method, headers: { authorization: 'Bearer ' + this._token } };
      if (body !== undefined) {
        init.headers['content-type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      const response = await fetch(ROOT + path, init);
      if (response.status !== 401 || fresh) return response;
      this._token = await this._fetchToken();
      return this._request(method, path, body, true);
    }

    async _register() {
      let response;
      try {
        this._token = await this._fetchToken();
        const device = { name: this._options.name, volume: this._options.volume };
        response = await this._request('POST', '/sdk/devices', device, true);
      } catch (error) {
        this._emit('initialization_error', { message: MESSAGES.initialization });
        return false;
      }
      if (response.status === 400 || response.status === 401) {
        this._emit('authentication_error', { message: MESSAGES.authentication });
        return false;
      }
      if (response.status === 403) {
        if ((await errorReason(response)) === 'PREMIUM_REQUIRED') {
          this._emit('account_error', { message: MESSAGES.account });
        } else {
          this._emit('authentication_error', { message: MESSAGES.scopes });
        }
        return false;
      }
      if (!response.ok) {
        this._emit('initialization_error', { message: MESSAGES.initialization });
        return false;
      }
      const { device_id: deviceId } = await response.json();
      this._deviceId = deviceId;
      window.addEventListener('pagehide', this._onPageHide);
      this._emit('ready', { device_id: deviceId });
      this._schedule();
      return true;
    }

    _schedule() {
      clearTimeout(this._timer);
      this._timer = setTimeout(() => {
        this._refresh().finally(() => {
          if (this._deviceId !== null) this._schedule();
        });
      }, POLL_INTERVAL_MS);
    }

    // State requests run one after another, so events follow the order of the states.
    _refresh() {
      const next = () => this._fetchState();
      this._refreshing = this._refreshing.then(next, next);
      return this._refreshing;
    }

    async _fetchState() {
      const deviceId = this._deviceId;
      if (deviceId === null) return null;
      let response;
      try {
        response = await this._request('GET', '/sdk/devices/' + encodeURIComponent(deviceId) + '/state');
      } catch (error) {
        return this._lastState;
      }
      if (deviceId !== this._deviceId) return null;
      if (response.status === 401) {
        this._stop();
        this._emit('authentication_error', { message: MESSAGES.authentication });
        return null;
      }
      if (response.status === 404) {
        // The sandbox dropped the device (the page was silent too long): reconnect, as the SDK does.
        this._stop();
        this._emit('not_ready', { device_id: deviceId });
        this.connect();
        return null;
      }
      if (!response.ok) return this._lastState;
      const body = await response.json();
      this._options.volume = body.volume;
      this._lastState = body.state;
      const key = body.state === null ? null : body.revision;
      if (key !== this._stateKey) {
        this._stateKey = key;
        this._emit('player_state_changed', body.state);
      }
      return body.state;
    }

    async _command(action, positionMs) {
      const deviceId = this._deviceId;
      if (deviceId === null) return;
      const body = positionMs === undefined ? { action } : { action, position_ms: positionMs };
      try {
        const path = '/sdk/devices/' + encodeURIComponent(deviceId) + '/playback';
        const response = await this._request('PUT', path, body);
        if (!response.ok) throw new Error('HTTP ' + response.status);
      } catch (error) {
        this._emit('playback_error', { message: MESSAGES.playback });
        return;
      }
      await this._refresh();
    }

    async _update(change) {
      const deviceId = this._deviceId;
      if (deviceId === null) return;
      try {
        const path = '/sdk/devices/' + encodeURIComponent(deviceId);
        const response = await this._request('PUT', path, change);
        if (!response.ok) throw new Error('HTTP ' + response.status);
      } catch (error) {
        this._emit('playback_error', { message: MESSAGES.playback });
      }
    }

    _stop() {
      clearTimeout(this._timer);
      this._timer = null;
      this._deviceId = null;
      this._stateKey = null;
      this._lastState = null;
      window.removeEventListener('pagehide', this._onPageHide);
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
})();
`;
}

/** A JSON string literal that is also safe inside an HTML <script> element. */
function scriptString(value: string): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
