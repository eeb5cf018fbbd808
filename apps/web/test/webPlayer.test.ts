import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PLAYER_CONNECT_FAILED_MESSAGE,
  SDK_UNAVAILABLE_MESSAGE,
  WebPlayer,
} from '../src/features/playback/webPlayer';
import { fakeApi, json } from './fakeApi';

type Listener = (payload: unknown) => void;

/** A stand-in for the SDK's `Spotify.Player`: records its options, fires what the test says. */
class FakePlayer {
  static created: FakePlayer[] = [];
  static onConnect: (player: FakePlayer) => void = () => undefined;
  readonly listeners = new Map<string, Listener[]>();
  disconnected = false;

  constructor(readonly options: Spotify.PlayerInit) {
    FakePlayer.created.push(this);
  }

  addListener(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return true;
  }

  emit(event: string, payload: unknown) {
    for (const listener of this.listeners.get(event) ?? []) listener(payload);
  }

  async connect() {
    FakePlayer.onConnect(this);
    return true;
  }

  disconnect() {
    this.disconnected = true;
  }
}

const page = window as unknown as { Spotify?: unknown };

beforeEach(() => {
  FakePlayer.created = [];
  fakeApi({
    'GET /api/spotify/token': json(200, {
      access_token: 'token-1',
      expires_in: 3600,
      sdk_url: '/sandbox/sdk/spotify-player.js',
    }),
  });
});

afterEach(() => {
  delete page.Spotify;
  vi.useRealTimers();
});

describe('the web player', () => {
  it('connects with the token, volume 0.8 and a name with "Earshot", and answers its device', async () => {
    page.Spotify = { Player: FakePlayer };
    FakePlayer.onConnect = (player) => player.emit('ready', { device_id: 'web-device' });
    const changed = vi.fn();
    const webPlayer = new WebPlayer(changed);

    await expect(webPlayer.start()).resolves.toBe('web-device');
    const [player] = FakePlayer.created;
    expect(player?.options.volume).toBe(0.8);
    expect(player?.options.name).toContain('Earshot');
    const token = await new Promise((resolve) => player?.options.getOAuthToken(resolve));
    expect(token).toBe('token-1');

    player?.emit('player_state_changed', {});
    expect(changed).toHaveBeenCalled();
    // Started once: asking again answers the same device.
    await expect(webPlayer.start()).resolves.toBe('web-device');
    expect(FakePlayer.created).toHaveLength(1);
  });

  it('fails with "Failed to connect player" on an account or authentication error', async () => {
    page.Spotify = { Player: FakePlayer };
    FakePlayer.onConnect = (player) =>
      player.emit('account_error', { message: 'premium users only' });
    const webPlayer = new WebPlayer(() => undefined);
    await expect(webPlayer.start()).rejects.toThrow(PLAYER_CONNECT_FAILED_MESSAGE);
    expect(FakePlayer.created[0]?.disconnected).toBe(true);
  });

  it('fails with "SDK unavailable" when the script does not load', async () => {
    const webPlayer = new WebPlayer(() => undefined);
    const started = webPlayer.start();
    await vi.waitFor(() => {
      const script = document.head.querySelector('script[src="/sandbox/sdk/spotify-player.js"]');
      expect(script).not.toBeNull();
      script?.dispatchEvent(new Event('error'));
    });
    await expect(started).rejects.toThrow(SDK_UNAVAILABLE_MESSAGE);
  });
});
