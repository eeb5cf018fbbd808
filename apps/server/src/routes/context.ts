import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { DataChanges } from '../db/changes';
import type { Db } from '../db/client';
import type { Auth } from '../http/auth';
import type { Metrics } from '../observability/metrics';
import type { LiveHub } from '../services/live';
import type { NowPlayingPoller } from '../services/now-playing';
import type { TokenCipher } from '../services/token-cipher';
import type { SpotifyClient } from '../spotify/client';

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
  /**
   * Asks Spotify what watched users play. After starting a play through Earshot, call
   * `nowPlaying.playStarted(userId)`: the user's friends see it at once.
   */
  nowPlaying: NowPlayingPoller;
}

export type RoutePlugin = FastifyPluginAsyncZod<RouteContext>;
