import type { z } from 'zod';
import type { SpotifyConfig } from '../config';
import { SpotifyError, SpotifyGrantRevokedError } from './errors';
import { spotifyFetch, type SpotifyHttp } from './http';
import {
  albumsBatch,
  artistsBatch,
  currentlyPlaying,
  followedArtistsPage,
  fullAlbum,
  fullArtist,
  playlistsPage,
  privateUser,
  recentlyPlayedPage,
  savedTracksPage,
  tokenResponse,
  track,
  tracksBatch,
  type FullArtist,
  type PrivateUser,
  type SimplifiedAlbum,
  type SpotifyTrack,
  type TokenResponse,
} from './schemas';

/** A user's access token, renewed by its owner when Spotify answers 401. */
export interface TokenSource {
  accessToken(): Promise<string>;
  /** Forces a refresh (the current token was refused) and returns the new token. */
  renewedAccessToken(): Promise<string>;
}

/** Spotify's batch lookups accept at most this many ids. */
const BATCH_LIMITS = { tracks: 50, artists: 50, albums: 20 } as const;

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

  constructor(
    readonly config: SpotifyConfig,
    readonly http: SpotifyHttp,
  ) {}

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
      const token = await spotifyFetch(
        this.http,
        'POST /api/token',
        `${this.config.accountsUrl}/api/token`,
        { method: 'POST', headers, body },
        tokenResponse,
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

  /** One Web API call with the user's token, renewed once if Spotify refuses it (401). */
  private async request<T>(
    auth: TokenSource | string,
    method: 'GET' | 'PUT' | 'DELETE' | 'POST',
    endpoint: string,
    path: string,
    schema: z.ZodType<T> | undefined,
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
        { method, headers: { authorization: `Bearer ${token}` } },
        schema,
      );
    if (typeof auth === 'string') return call(auth);
    try {
      return await call(await auth.accessToken());
    } catch (error) {
      if (!(error instanceof SpotifyError) || error.status !== 401) throw error;
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

  tracks(auth: TokenSource, ids: readonly string[]): Promise<SpotifyTrack[]> {
    return this.lookup(auth, 'tracks', ids, tracksBatch, track, (batch) => batch.tracks);
  }

  artists(auth: TokenSource, ids: readonly string[]): Promise<FullArtist[]> {
    return this.lookup(auth, 'artists', ids, artistsBatch, fullArtist, (batch) => batch.artists);
  }

  albums(auth: TokenSource, ids: readonly string[]): Promise<SimplifiedAlbum[]> {
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
    let pending = [...ids];
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
