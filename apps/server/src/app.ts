import { existsSync } from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { spotifySandbox } from '@earshot/spotify-sandbox/plugin';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DataChanges } from './db/changes';
import type { Db } from './db/client';
import { createAuth } from './http/auth';
import { boundaryServerOptions, guardTheBoundary } from './http/boundary';
import { refuseCrossSiteWrites } from './http/cross-site';
import { HttpError } from './errors';
import { installErrorHandling } from './http/errors';
import type { ErrorReporter } from './observability/error-reporting';
import type { Metrics } from './observability/metrics';
import type { RouteContext } from './routes/context';
import { activityRoutes } from './routes/activity';
import { adminRoutes } from './routes/admin';
import { albumRoutes } from './routes/catalogue/album';
import { artistRoutes } from './routes/catalogue/artist';
import { playlistRoutes } from './routes/catalogue/playlist';
import { trackRoutes } from './routes/catalogue/track';
import { friendshipRoutes } from './routes/friendship';
import { ignoreRoutes } from './routes/ignore';
import { metricsRoutes } from './routes/metrics';
import { searchRoutes } from './routes/search';
import { sessionRoutes } from './routes/session';
import { liveRoutes } from './routes/live';
import { importRoutes } from './routes/spotify/import';
import { spotifyLibraryRoutes } from './routes/spotify/library';
import { playbackRoutes } from './routes/spotify/playback';
import { spotifyConnectionRoutes } from './routes/spotify/connection';
import { statusRoutes } from './routes/status';
import { suggestionRoutes } from './routes/suggestions';
import { exportRoutes } from './routes/user/export';
import { accountRoutes } from './routes/user/account';
import { serveWebApp } from './routes/web-app';
import { LiveHub } from './services/live';
import { NowPlayingPoller } from './services/now-playing';
import { SESSION_COOKIE } from './services/sessions';
import { SimilarTracks } from './services/similar-tracks';
import { VisitorSpotify } from './services/visitor-spotify';
import type { TokenCipher } from './services/token-cipher';
import type { SpotifyClient } from './spotify/client';

export interface AppDependencies {
  config: Config;
  db: Db;
  /** Committed writes as announced by the database: keeps this process's caches exact. */
  changes: DataChanges;
  cipher: TokenCipher;
  spotify: SpotifyClient;
  metrics: Metrics;
  logger?: FastifyServerOptions['logger'];
  /**
   * With the sandbox mounted: the bearer token of its control API (faults, clock, headless
   * consent). Without one the control API stays closed.
   */
  sandboxControlToken?: string;
  /** Where unexpected errors go (Sentry, with SENTRY_DSN); its owner closes it. */
  errorReporter?: ErrorReporter | null;
}

/** Where Spotify's images come from, for the CSP. */
const SPOTIFY_IMAGE_ORIGINS = [
  'https://i.scdn.co',
  'https://*.scdn.co',
  'https://*.spotifycdn.com',
];

/**
 * The Web Playback SDK's origin (its script is loaded, and frames it, from there) and, when error
 * reporting is configured, the origin the browser sends its reports to.
 */
function contentSecurityPolicy(
  secure: boolean,
  sdkOrigin: string,
  errorReportsOrigin: string | undefined,
) {
  return {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", sdkOrigin],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...SPOTIFY_IMAGE_ORIGINS],
      // The images too: the web app's service worker fetches covers to keep them for offline use,
      // and a worker's fetches obey its script's CSP (this one) as connections.
      connectSrc: [
        "'self'",
        sdkOrigin,
        'https://*.spotify.com',
        'wss://*.spotify.com',
        ...SPOTIFY_IMAGE_ORIGINS,
        ...(errorReportsOrigin ? [errorReportsOrigin] : []),
      ],
      frameSrc: [sdkOrigin],
      mediaSrc: ["'self'", 'blob:', 'https:'],
      formAction: ["'self'"],
      // On plain http (local use) upgrading would break every subresource.
      upgradeInsecureRequests: secure ? [] : null,
    },
  };
}

/**
 * Only API calls are worth a log line each: the web app's files and the calls the server makes to
 * its own mounted sandbox would drown them.
 */
function isQuietRequest(request: FastifyRequest): boolean {
  return !request.url.startsWith('/api/');
}

/** Requests per minute and address to the mounted sandbox's accounts service and exports. */
const SANDBOX_PAGES_PER_MINUTE = 120;
const SANDBOX_LIMITED_PATHS = /^\/sandbox\/(accounts|exports|privacy)(\/|\?|$)/;

/** Builds the Fastify app: plugins, routes, the web app's files. Listening is the caller's job. */
export async function buildApp({
  config,
  db,
  changes,
  cipher,
  spotify,
  metrics,
  logger = false,
  sandboxControlToken,
  errorReporter = null,
}: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    ...boundaryServerOptions,
    logger,
    logController: new LogController({ disableRequestLogging: isQuietRequest }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app, errorReporter);
  const auth = createAuth(db, changes, config.secureCookies, config.adminEmails);
  guardTheBoundary(app, auth);

  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(
      config.secureCookies,
      new URL(config.spotify.sdkUrl).origin,
      config.sentryDsn && new URL(config.sentryDsn).origin,
    ),
    strictTransportSecurity: config.secureCookies,
  });
  // Dynamic answers (JSON, the pages' HTML); built assets are compressed once at build time.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
  await app.register(cookie);
  await app.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: '1 minute',
    allowList: (request) => !request.url.startsWith('/api/'),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many requests. Please retry in ${context.after}.`),
  });
  refuseCrossSiteWrites(app, config.publicUrl);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Earshot API',
        version: config.version,
        description: 'Every error answers `{"detail": string}`.',
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  const live = new LiveHub({
    db,
    changes,
    metrics,
    settings: {
      heartbeatMs: config.live.heartbeatMs,
      maxBufferedBytes: config.live.maxBufferedBytes,
      retryMs: 3_000,
      dropRetryMs: 30_000,
    },
    log: (error) => app.log.error({ err: error }, 'live activity'),
  });
  const nowPlaying = new NowPlayingPoller({
    db,
    cipher,
    spotify,
    metrics,
    settings: {
      tickMs: config.live.nowPlayingTickMs,
      budgetPer30s: config.live.nowPlayingBudgetPer30s,
    },
    watched: () => live.watchedUsers(),
    log: (error) => app.log.error({ err: error }, 'now playing'),
  });
  nowPlaying.start();
  // Open streams would hold the server open: they end first (clients reconnect elsewhere).
  app.addHook('preClose', async () => {
    await nowPlaying.stop();
    await live.stop();
  });

  // Without a secret (a public client) Spotify gives Earshot no token of its own.
  const visitorSpotify =
    spotify.appToken && config.visitorFillBudgetPer30s > 0
      ? new VisitorSpotify(
          spotify.appToken,
          spotify.http.gate,
          config.visitorFillBudgetPer30s,
          metrics,
        )
      : null;
  const context: RouteContext = {
    config,
    db,
    changes,
    cipher,
    auth,
    spotify,
    metrics,
    live,
    nowPlaying,
    similarTracks: new SimilarTracks(),
    visitorSpotify,
  };
  const areas = [
    statusRoutes,
    accountRoutes,
    exportRoutes,
    sessionRoutes,
    spotifyConnectionRoutes,
    importRoutes,
    spotifyLibraryRoutes,
    playbackRoutes,
    friendshipRoutes,
    activityRoutes,
    liveRoutes,
    ignoreRoutes,
    adminRoutes,
    artistRoutes,
    albumRoutes,
    trackRoutes,
    playlistRoutes,
    suggestionRoutes,
    metricsRoutes,
    searchRoutes,
  ];
  for (const routes of areas) {
    await app.register(routes, context);
  }

  if (config.spotify.sandboxMounted) {
    // Its login pages, token endpoint and history downloads are open to anyone who reaches the
    // server (a public demo with DEMO_MODE): a budget per address keeps them from being drained.
    const sandboxLimit = app.rateLimit({
      max: SANDBOX_PAGES_PER_MINUTE,
      timeWindow: '1 minute',
      allowList: (request) => !SANDBOX_LIMITED_PATHS.test(request.url),
    });
    await app.register(async (sandboxScope) => {
      sandboxScope.addHook('onRequest', sandboxLimit);
      await sandboxScope.register(spotifySandbox, {
        prefix: '/sandbox',
        publicUrl: `${config.publicUrl}/sandbox`,
        clients: [
          {
            id: config.spotify.clientId,
            ...(config.spotify.clientSecret && { secret: config.spotify.clientSecret }),
            redirectUris: [config.spotify.redirectUri],
            mode: 'extended',
          },
        ],
        dataDir: path.join(config.dataDir, 'sandbox'),
        control: sandboxControlToken
          ? { enabled: true, token: sandboxControlToken }
          : { enabled: false },
      });
    });
  }

  const sendPage = existsSync(path.join(config.webDistDir, 'index.html'))
    ? await serveWebApp(app, {
        db,
        distDir: config.webDistDir,
        publicUrl: config.publicUrl,
        spotify,
        visitorSpotify,
      })
    : null;

  app.setNotFoundHandler(async (request, reply) => {
    const [pathname = '/', query = ''] = request.url.split('?');
    const isApi = pathname.startsWith('/api/') || pathname.startsWith('/sandbox/');
    if (sendPage && (request.method === 'GET' || request.method === 'HEAD') && !isApi) {
      // Whether the session is live, not only present: an ended one gets its cookies cleared
      // here, and no signed-in page's preloads (they would answer 401 and go unused).
      if (request.cookies[SESSION_COOKIE]) await auth.identifyUser(request, reply);
      const signedIn = Boolean(request.user);
      if (signedIn) auth.markSignedIn(request, reply);
      // The web app routes on the client; the status says whether a page answers the path.
      return sendPage(pathname, reply, {
        hasSession: signedIn,
        search: new URLSearchParams(query),
      });
    }
    return reply.code(404).send({ detail: `No route for ${request.method} ${pathname}` });
  });

  return app;
}
