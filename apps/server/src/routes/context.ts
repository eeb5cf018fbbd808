import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { DataChanges } from '../db/changes';
import type { Db } from '../db/client';
import type { Auth } from '../http/auth';
import type { Metrics } from '../observability/metrics';
import type { LiveHub } from '../services/live';
import type { NowPlayingPoller } from '../services/now-playing';
import type { SimilarTracks } from '../services/similar-tracks';
import type { TokenCipher } from '../services/token-cipher';
import type { SpotifyClient, TokenSource } from '../spotify/client';

/** What every route area gets: configuration, the database and the shared helpers. */
export interface RouteContext {
  config: Config;
  db: Db;
  changes: DataChanges;
  cipher: TokenCipher;
  auth: Auth;
  spotify: SpotifyClient;
  metrics: Metrics;
  /** This process's live streams (`GET /api/live`). */
  live: LiveHub;
  /** Asks Spotify what watched users play. */
  nowPlaying: NowPlayingPoller;
  /** Track pages' similar tracks, each song's kept a while in this process. */
  similarTracks: SimilarTracks;
  /** Earshot's own Spotify token, within its budget, for visitors' pages; null: none. */
  visitorSpotify: TokenSource | null;
}

export type RoutePlugin = FastifyPluginAsyncZod<RouteContext>;
