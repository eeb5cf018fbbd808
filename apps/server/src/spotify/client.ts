import type { z } from 'zod';
import type { SpotifyConfig } from '../config';
import { AppTokenSource } from './app-token';
import { SpotifyError, SpotifyGrantRevokedError } from './errors';
import { spotifyFetch, type SpotifyHttp } from './http';
import {
  albumTracksPage,
  albumsBatch,
  artistAlbumsPage,
  artistsBatch,
  containsAnswer,
  devicesResponse,
  playbackStateResponse,
  queueResponse,
  currentlyPlaying,
  followedArtistsPage,
  fullAlbum,
  fullArtist,
  playlistItemsPage,
  playlistsPage,
  privateUser,
  recentlyPlayedPage,
  savedTracksPage,
  searchPage,
  tokenResponse,
  track,
  tracksBatch,
  simplifiedPlaylist,
  type FullAlbum,
  type FullArtist,
  type PlaybackStateResponse,
  type PrivateUser,
  type SearchPage,
  type SpotifyDevice,
  type SpotifyTrack,
  type TokenResponse,
} from './schemas';

/** Spotify's ids: 22 characters of base 62. */
const SPOTIFY_ID = /^[0-9A-Za-z]{22}$/;

/** A user's access token, renewed by its owner when Spotify answers 401. */
export interface TokenSource {
  accessToken(): Promise<string>;
  /** Forces a refresh (the current token was refused) and returns the new token. */
  renewedAccessToken(): Promise<string>;
}

/** Spotify's batch lookups accept at most this many ids. */
const BATCH_LIMITS = { tracks: 50, artists: 50, albums: 20 } as const;

/** Results per type one search call may ask for: Extended Quota Mode, and Development Mode. */
const SEARCH_LIMITS = { extended: 50, development: 10 } as const;

export type SearchType = 'track' | 'album' | 'artist';

/**
 * Earshot's only door to Spotify: the Accounts service and the Web API, at the configured base
 * URLs. It never touches the database. Works with Extended Quota Mode apps (batch lookups) and
 * Development Mode apps (single lookups once a batch endpoint answers 403/404).
 */
export class SpotifyClient {
  /** Learned on the first batch lookup: Development Mode apps no longer have them. */
  private batchLookups: boolean | undefined;
  /** Learned on the first like: Development Mode apps save through `/me/library`. */
  private libraryEndpoint: 'tracks' | 'library' | undefined;
  /** Learned on the first follow: Development Mode apps follow through `/me/library` too. */
  private followEndpoint: 'following' | 'library' | undefined;
  /** Lowered on the first search refused for its limit: Development Mode apps allow 10. */
  private searchLimit: number = SEARCH_LIMITS.extended;

  /**
   * Earshot's own token (client credentials) for catalogue reads no user asked for; null for a
   * public client (no secret), which Spotify gives no token of its own.
   */
  readonly appToken: TokenSource | null;

  constructor(
    readonly config: SpotifyConfig,
    readonly http: SpotifyHttp,
  ) {
    this.appToken = config.clientSecret
      ? new AppTokenSource(() => this.requestToken({ grant_type: 'client_credentials' }))
      : null;
  }

  // Accounts service.

  private async requestToken(form: Record<string, string>): Promise<TokenResponse> {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
    };
    const body = new URLSearchParams(form);
    if (this.config.clientSecret) {
      const basic = `${this.config.clientId}:${this.config.clientSecret}`;
      headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
    } else {
      body.set('client_id', this.config.clientId);
    }
    try {
      // Sent again after a 5xx or a lost answer, although a POST: a code or single-use refresh
      // token the lost attempt spent is refused (`invalid_grant`), which is where the user would
      // be anyway, with the spent token still stored; one it did not spend still works.
      const token = await spotifyFetch(
        this.http,
        'POST /api/token',
        `${this.config.accountsUrl}/api/token`,
        { method: 'POST', headers, body },
        tokenResponse,
        true,
      );
      if (!token) throw new SpotifyError('Spotify answered without a token', 502);
      return token;
    } catch (error) {
      if (error instanceof SpotifyError && error.reason === 'invalid_grant') {
        throw new SpotifyGrantRevokedError(error.message);
      }
      throw error;
    }
  }

  exchangeAuthorizationCode(code: string, codeVerifier: string): Promise<TokenResponse> {
    return this.requestToken({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.config.redirectUri,
      code_verifier: codeVerifier,
    });
  }

  /** PKCE refresh tokens are single-use: persist the returned `refresh_token` at once. */
  refreshAccessToken(refreshToken: string): Promise<TokenResponse> {
    return this.requestToken({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  // Web API.

  private async get<T>(
    auth: TokenSource | string,
    endpoint: string,
    path: string,
    schema: z.ZodType<T>,
  ): Promise<T> {
    const result = await this.request(auth, 'GET', endpoint, path, schema);
    if (result === undefined) throw new SpotifyError('Spotify answered without a body', 502);
    return result;
  }

  /**
   * One Web API call with the user's token, renewed once if Spotify refuses it (401). `body` is
   * sent as JSON.
   */
  private async request<T>(
    auth: TokenSource | string,
    method: 'GET' | 'PUT' | 'DELETE' | 'POST',
    endpoint: string,
    path: string,
    schema: z.ZodType<T> | undefined,
    body?: unknown,
  ): Promise<T | undefined> {
    // `next` links come back absolute; follow them only into the configured API.
    const url = path.startsWith('/') ? `${this.config.apiUrl}${path}` : path;
    if (!url.startsWith(`${this.config.apiUrl}/`)) {
      throw new SpotifyError('Spotify sent a paging link outside its API', 502);
    }
    const call = (token: string) =>
      spotifyFetch(
        this.http,
        endpoint,
        url,
        body === undefined
          ? { method, headers: { authorization: `Bearer ${token}` } }
          : {
              method,
              headers: {
                authorization: `Bearer ${token}`,
                'content-type': 'application/json',
              },
              body: JSON.stringify(body),
            },
        schema,
      );
    if (typeof auth === 'string') return call(auth);
    try {
      return await call(await auth.accessToken());
    } catch (error) {
      if (!(error instanceof SpotifyError) || error.status !== 401) throw error;
      // A request refused for its token was not carried out: sent again, whatever its method.
      return call(await auth.renewedAccessToken());
    }
  }

  /**
   * Saves or removes tracks in the user's library ("likes"): `/me/tracks` where the app has it
   * (Extended Quota Mode), `/me/library` with track URIs where it does not (Development Mode).
   */
  async setTracksSaved(auth: TokenSource, ids: readonly string[], saved: boolean): Promise<void> {
    const method = saved ? 'PUT' : 'DELETE';
    for (let start = 0; start < ids.length; start += BATCH_LIMITS.tracks) {
      const chunk = ids.slice(start, start + BATCH_LIMITS.tracks);
      if (this.libraryEndpoint !== 'library') {
        try {
          await this.request(
            auth,
            method,
            `${method} /me/tracks`,
            `/me/tracks?ids=${chunk.join(',')}`,
            undefined,
          );
          this.libraryEndpoint = 'tracks';
          continue;
        } catch (error) {
          const gone =
            error instanceof SpotifyError && (error.status === 403 || error.status === 404);
          if (!gone || this.libraryEndpoint === 'tracks') throw error;
          this.libraryEndpoint = 'library';
        }
      }
      const uris = chunk.map((id) => `spotify:track:${id}`).join(',');
      await this.request(
        auth,
        method,
        `${method} /me/library`,
        `/me/library?uris=${encodeURIComponent(uris)}`,
        undefined,
      );
    }
  }

  /**
   * Follows or unfollows an artist for the user: `/me/following` where the app has it (Extended
   * Quota Mode), `/me/library` with the artist's URI where it does not (Development Mode).
   */
  async setArtistFollowed(auth: TokenSource, id: string, followed: boolean): Promise<void> {
    const method = followed ? 'PUT' : 'DELETE';
    await this.followCall(
      () =>
        this.request(
          auth,
          method,
          `${method} /me/following`,
          `/me/following?type=artist&ids=${id}`,
          undefined,
        ),
      () =>
        this.request(
          auth,
          method,
          `${method} /me/library`,
          `/me/library?uris=${encodeURIComponent(`spotify:artist:${id}`)}`,
          undefined,
        ),
    );
  }

  /** Whether the user follows an artist, asked of Spotify by the endpoint of the app's mode. */
  async artistFollowed(auth: TokenSource, id: string): Promise<boolean> {
    const answer = await this.followCall(
      () =>
        this.get(
          auth,
          'GET /me/following/contains',
          `/me/following/contains?type=artist&ids=${id}`,
          containsAnswer,
        ),
      () =>
        this.get(
          auth,
          'GET /me/library/contains',
          `/me/library/contains?uris=${encodeURIComponent(`spotify:artist:${id}`)}`,
          containsAnswer,
        ),
    );
    return answer[0] === true;
  }

  /** Runs a follow call on `/me/following`, or on `/me/library` once that answered 403/404. */
  private async followCall<T>(following: () => Promise<T>, library: () => Promise<T>) {
    if (this.followEndpoint !== 'library') {
      try {
        const result = await following();
        this.followEndpoint = 'following';
        return result;
      } catch (error) {
        const gone =
          error instanceof SpotifyError && (error.status === 403 || error.status === 404);
        if (!gone || this.followEndpoint === 'following') throw error;
        this.followEndpoint = 'library';
      }
    }
    return library();
  }

  currentUser(auth: TokenSource | string): Promise<PrivateUser> {
    return this.get(auth, 'GET /me', '/me', privateUser);
  }

  /** One page of recently played tracks after `afterMs`, oldest cursor first; follow `next`. */
  recentlyPlayed(auth: TokenSource, afterMs: number | undefined, next?: string) {
    const query = new URLSearchParams({ limit: '50' });
    if (afterMs !== undefined) query.set('after', String(afterMs));
    return this.get(
      auth,
      'GET /me/player/recently-played',
      next ?? `/me/player/recently-played?${query}`,
      recentlyPlayedPage,
    );
  }

  /** What the user plays now: a track with its progress, or undefined for nothing (204, or no track). */
  async currentlyPlaying(
    auth: TokenSource,
  ): Promise<{ track: SpotifyTrack; isPlaying: boolean; progressMs: number } | undefined> {
    const answer = await this.request(
      auth,
      'GET',
      'GET /me/player/currently-playing',
      '/me/player/currently-playing',
      currentlyPlaying,
    );
    if (!answer || answer.currently_playing_type !== 'track') return undefined;
    const item = track.safeParse(answer.item);
    if (!item.success) return undefined;
    return { track: item.data, isPlaying: answer.is_playing, progressMs: answer.progress_ms ?? 0 };
  }

  savedTracks(auth: TokenSource, next?: string) {
    return this.get(auth, 'GET /me/tracks', next ?? '/me/tracks?limit=50', savedTracksPage);
  }

  followedArtists(auth: TokenSource, next?: string) {
    return this.get(
      auth,
      'GET /me/following',
      next ?? '/me/following?type=artist&limit=50',
      followedArtistsPage,
    );
  }

  playlists(auth: TokenSource, next?: string) {
    return this.get(auth, 'GET /me/playlists', next ?? '/me/playlists?limit=50', playlistsPage);
  }

  /**
   * An artist's newest releases of one group, newest first: one page of 10, the most a
   * Development Mode app may ask for.
   */
  artistReleases(auth: TokenSource, artistId: string, group: 'album' | 'single') {
    return this.get(
      auth,
      'GET /artists/{id}/albums',
      `/artists/${encodeURIComponent(artistId)}/albums?include_groups=${group}&limit=10`,
      artistAlbumsPage,
    );
  }

  /** One page of an artist's own releases (Development Mode pages hold at most 10). */
  artistAlbums(auth: TokenSource, id: string, next?: string) {
    return this.get(
      auth,
      'GET /artists/{id}/albums',
      next ?? `/artists/${id}/albums?include_groups=album,single,compilation&limit=10`,
      artistAlbumsPage,
    );
  }

  /** The next page of an album's tracks, from the `next` link of the album's `tracks`. */
  albumTracks(auth: TokenSource, next: string) {
    return this.get(auth, 'GET /albums/{id}/tracks', next, albumTracksPage);
  }

  playlist(auth: TokenSource, id: string) {
    // An id Spotify could not have issued names no playlist (Spotify would answer 400).
    if (!SPOTIFY_ID.test(id)) throw new SpotifyError('Not found', 404);
    return this.get(auth, 'GET /playlists/{id}', `/playlists/${id}`, simplifiedPlaylist);
  }

  /** One page of a playlist's items (Development Mode: only for its owner and collaborators). */
  playlistItems(auth: TokenSource, id: string, next?: string) {
    return this.get(
      auth,
      'GET /playlists/{id}/items',
      next ?? `/playlists/${id}/items?limit=50`,
      playlistItemsPage,
    );
  }

  /**
   * Searches the catalogue: up to `limit` results of each type, or as many as the app's mode
   * allows per call (Development Mode answers 400 "Invalid limit" above 10: learned once).
   */
  async search(
    auth: TokenSource,
    text: string,
    types: readonly SearchType[],
    limit: number,
  ): Promise<SearchPage> {
    const ask = (perType: number) =>
      this.get(
        auth,
        'GET /search',
        `/search?${new URLSearchParams({ q: text, type: types.join(','), limit: String(perType) })}`,
        searchPage,
      );
    const perType = Math.min(limit, this.searchLimit);
    try {
      return await ask(perType);
    } catch (error) {
      const limitRefused =
        error instanceof SpotifyError && error.status === 400 && /limit/i.test(error.message);
      if (!limitRefused || perType <= SEARCH_LIMITS.development) throw error;
      this.searchLimit = SEARCH_LIMITS.development;
      return ask(SEARCH_LIMITS.development);
    }
  }

  // Player. Commands answer any 2xx as success without reading the body (Spotify's `pause` and
  // `next` have answered 200 with bodies that are not JSON).

  /** What plays now and where; null when nothing is loaded on an active device (204). */
  async playbackState(auth: TokenSource): Promise<PlaybackStateResponse | null> {
    const state = await this.request(
      auth,
      'GET',
      'GET /me/player',
      '/me/player',
      playbackStateResponse,
    );
    return state ?? null;
  }

  async devices(auth: TokenSource): Promise<SpotifyDevice[]> {
    const answer = await this.get(
      auth,
      'GET /me/player/devices',
      '/me/player/devices',
      devicesResponse,
    );
    return answer.devices;
  }

  /** The ids of the tracks Spotify will play next, in order. */
  async queue(auth: TokenSource): Promise<string[]> {
    const answer = await this.request(
      auth,
      'GET',
      'GET /me/player/queue',
      '/me/player/queue',
      queueResponse,
    );
    return (answer?.queue ?? []).flatMap((item) => (item.id ? [item.id] : []));
  }

  /** Starts a track, in a context (album, playlist, artist) when one is given. */
  async play(
    auth: TokenSource,
    trackId: string,
    contextUri: string | null,
    deviceId?: string,
  ): Promise<void> {
    const trackUri = `spotify:track:${trackId}`;
    const body = contextUri
      ? { context_uri: contextUri, offset: { uri: trackUri }, position_ms: 0 }
      : { uris: [trackUri], position_ms: 0 };
    const query = deviceId ? `?device_id=${encodeURIComponent(deviceId)}` : '';
    await this.request(
      auth,
      'PUT',
      'PUT /me/player/play',
      `/me/player/play${query}`,
      undefined,
      body,
    );
  }

  async resume(auth: TokenSource): Promise<void> {
    await this.request(auth, 'PUT', 'PUT /me/player/play', '/me/player/play', undefined);
  }

  async pause(auth: TokenSource): Promise<void> {
    await this.request(auth, 'PUT', 'PUT /me/player/pause', '/me/player/pause', undefined);
  }

  async skipToNext(auth: TokenSource): Promise<void> {
    await this.request(auth, 'POST', 'POST /me/player/next', '/me/player/next', undefined);
  }

  async transferPlayback(auth: TokenSource, deviceId: string, play: boolean): Promise<void> {
    await this.request(auth, 'PUT', 'PUT /me/player', '/me/player', undefined, {
      device_ids: [deviceId],
      play,
    });
  }

  tracks(auth: TokenSource, ids: readonly string[]): Promise<SpotifyTrack[]> {
    return this.lookup(auth, 'tracks', ids, tracksBatch, track, (batch) => batch.tracks);
  }

  artists(auth: TokenSource, ids: readonly string[]): Promise<FullArtist[]> {
    return this.lookup(auth, 'artists', ids, artistsBatch, fullArtist, (batch) => batch.artists);
  }

  albums(auth: TokenSource, ids: readonly string[]): Promise<FullAlbum[]> {
    return this.lookup(auth, 'albums', ids, albumsBatch, fullAlbum, (batch) => batch.albums);
  }

  /**
   * Full objects for `ids`: batch calls where the app has them, else one call per id.
   * Ids Spotify no longer knows are left out of the answer.
   */
  private async lookup<B, O>(
    auth: TokenSource,
    kind: keyof typeof BATCH_LIMITS,
    ids: readonly string[],
    batchSchema: z.ZodType<B>,
    singleSchema: z.ZodType<O>,
    items: (batch: B) => (O | null)[],
  ): Promise<O[]> {
    const found: O[] = [];
    // Spotify answers 400 for a whole batch over one malformed id: such an id names nothing there.
    let pending = ids.filter((id) => SPOTIFY_ID.test(id));
    while (pending.length > 0 && this.batchLookups !== false) {
      const chunk = pending.slice(0, BATCH_LIMITS[kind]);
      try {
        const batch = await this.get(
          auth,
          `GET /${kind}`,
          `/${kind}?ids=${chunk.join(',')}`,
          batchSchema,
        );
        this.batchLookups = true;
        found.push(...items(batch).filter((item): item is NonNullable<typeof item> => !!item));
        pending = pending.slice(chunk.length);
      } catch (error) {
        const gone =
          error instanceof SpotifyError && (error.status === 403 || error.status === 404);
        if (!gone || this.batchLookups === true) throw error;
        this.batchLookups = false;
      }
    }
    for (const id of pending) {
      try {
        found.push(await this.get(auth, `GET /${kind}/{id}`, `/${kind}/${id}`, singleSchema));
      } catch (error) {
        if (!(error instanceof SpotifyError) || error.status !== 404) throw error;
      }
    }
    return found;
  }
}
