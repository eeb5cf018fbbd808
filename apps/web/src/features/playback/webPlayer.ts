import { PRODUCT_NAME } from '@earshot/contract/site';
import { WEB_PLAYER_VOLUME } from '../../lib/constants';
import { fetchPlayerToken } from './api/playerToken';

/** Texts of docs/product.md, Errors (Web player). */
export const SDK_UNAVAILABLE_MESSAGE = 'SDK unavailable';
export const PLAYER_CONNECT_FAILED_MESSAGE = 'Failed to connect player';

/** The name this browser's player shows in Spotify's device lists. */
export const WEB_PLAYER_NAME = `${PRODUCT_NAME} Web Player`;

/** How long the SDK's script and the player's `ready` may take; not a spec value. */
const SDK_LOAD_TIMEOUT_MS = 15_000;

interface SdkWindow {
  Spotify?: typeof Spotify;
  onSpotifyWebPlaybackSDKReady?: () => void;
}

let sdkLoading: Promise<typeof Spotify> | undefined;

/** Loads the Web Playback SDK's script once from `url` (the configured SDK address). */
function loadSdk(url: string): Promise<typeof Spotify> {
  const page = window as unknown as SdkWindow;
  if (page.Spotify) return Promise.resolve(page.Spotify);
  sdkLoading ??= new Promise<typeof Spotify>((resolve, reject) => {
    const fail = () => {
      sdkLoading = undefined;
      script.remove();
      reject(new Error(SDK_UNAVAILABLE_MESSAGE));
    };
    const timer = setTimeout(fail, SDK_LOAD_TIMEOUT_MS);
    page.onSpotifyWebPlaybackSDKReady = () => {
      clearTimeout(timer);
      if (page.Spotify) resolve(page.Spotify);
      else fail();
    };
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onerror = () => {
      clearTimeout(timer);
      fail();
    };
    document.head.append(script);
  });
  return sdkLoading;
}

/**
 * The player in this browser (docs/product.md, Mini player): the Web Playback SDK connected with
 * the user's token, volume WEB_PLAYER_VOLUME, named after the product. One per page; `start`
 * answers its device id once Spotify lists it.
 */
export class WebPlayer {
  private player: Spotify.Player | undefined;
  private deviceId: string | undefined;
  private starting: Promise<string> | undefined;

  constructor(
    /** Told whenever the SDK reports a new playback state of this player. */
    private readonly onStateChanged: () => void,
  ) {}

  /** This player's device id, if it is connected. */
  get connectedDeviceId(): string | undefined {
    return this.deviceId;
  }

  start(): Promise<string> {
    if (this.deviceId) return Promise.resolve(this.deviceId);
    this.starting ??= this.connect().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  disconnect(): void {
    this.player?.disconnect();
    this.player = undefined;
    this.deviceId = undefined;
  }

  private async connect(): Promise<string> {
    const { sdk_url: sdkUrl } = await fetchPlayerToken();
    const sdk = await loadSdk(sdkUrl);
    const player = new sdk.Player({
      name: WEB_PLAYER_NAME,
      volume: WEB_PLAYER_VOLUME,
      getOAuthToken: (give) => {
        fetchPlayerToken().then(
          (token) => give(token.access_token),
          () => give(''),
        );
      },
    });
    this.player = player;
    const ready = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(PLAYER_CONNECT_FAILED_MESSAGE)),
        SDK_LOAD_TIMEOUT_MS,
      );
      const refuse = () => {
        clearTimeout(timer);
        reject(new Error(PLAYER_CONNECT_FAILED_MESSAGE));
      };
      player.addListener('ready', ({ device_id }) => {
        clearTimeout(timer);
        this.deviceId = device_id;
        resolve(device_id);
      });
      player.addListener('initialization_error', refuse);
      player.addListener('authentication_error', refuse);
      player.addListener('account_error', refuse);
    });
    player.addListener('not_ready', () => {
      this.deviceId = undefined;
    });
    player.addListener('player_state_changed', () => this.onStateChanged());
    player.addListener('playback_error', () => this.onStateChanged());
    if (!(await player.connect())) {
      this.disconnect();
      throw new Error(PLAYER_CONNECT_FAILED_MESSAGE);
    }
    try {
      return await ready;
    } catch (error) {
      this.disconnect();
      throw error;
    }
  }
}
