import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { defaultHttpOptions, type SpotifyHttp, type SpotifyHttpOptions } from '../spotify/http';
import { SpotifyRateGate } from '../spotify/rate-gate';

/** Prometheus metrics of one process: Spotify calls, jobs, queue depth, rate-limit waits. */
export interface Metrics {
  registry: Registry;
  spotifyRequests: Counter<'endpoint' | 'status'>;
  spotifyRequestSeconds: Histogram<'endpoint'>;
  rateLimitWaitSeconds: Counter;
  jobs: Counter<'queue' | 'outcome'>;
  jobSeconds: Histogram<'queue'>;
  queueDepth: Gauge<'queue'>;
  playsStored: Counter<'source'>;
  activityCache: Counter<'result'>;
  profileCache: Counter<'result'>;
  liveStreams: Gauge;
  liveEvents: Counter<'event'>;
  liveDropped: Counter;
  nowPlayingPolls: Counter<'outcome'>;
  nowPlayingWatched: Gauge;
  visitorFillCalls: Counter<'outcome'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'earshot_' });
  const registers = [registry];
  return {
    registry,
    spotifyRequests: new Counter({
      name: 'earshot_spotify_requests_total',
      help: 'Calls to Spotify by endpoint and HTTP status (0: network error or timeout).',
      labelNames: ['endpoint', 'status'],
      registers,
    }),
    spotifyRequestSeconds: new Histogram({
      name: 'earshot_spotify_request_seconds',
      help: 'Duration of calls to Spotify.',
      labelNames: ['endpoint'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rateLimitWaitSeconds: new Counter({
      name: 'earshot_spotify_rate_limit_wait_seconds_total',
      help: 'Seconds Spotify asked Earshot to wait (Retry-After of 429 answers).',
      registers,
    }),
    jobs: new Counter({
      name: 'earshot_jobs_total',
      help: 'Jobs run, by queue and outcome.',
      labelNames: ['queue', 'outcome'],
      registers,
    }),
    jobSeconds: new Histogram({
      name: 'earshot_job_seconds',
      help: 'Duration of jobs by queue.',
      labelNames: ['queue'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    queueDepth: new Gauge({
      name: 'earshot_queue_depth',
      help: 'Jobs waiting per queue (sampled at scrape time).',
      labelNames: ['queue'],
      registers,
    }),
    playsStored: new Counter({
      name: 'earshot_plays_stored_total',
      help: 'New plays stored, by source.',
      labelNames: ['source'],
      registers,
    }),
    activityCache: new Counter({
      name: 'earshot_activity_cache_requests_total',
      help: 'Feed pages (recent plays, likes) answered from memory (hit) or read (miss, bypass).',
      labelNames: ['result'],
      registers,
    }),
    profileCache: new Counter({
      name: 'earshot_profile_cache_requests_total',
      help: 'Public profiles for visitors answered from memory (hit) or read (miss, bypass).',
      labelNames: ['result'],
      registers,
    }),
    liveStreams: new Gauge({
      name: 'earshot_live_streams',
      help: 'Live activity streams (GET /api/live) open on this process.',
      registers,
    }),
    liveEvents: new Counter({
      name: 'earshot_live_events_sent_total',
      help: 'Events written to live streams, by event.',
      labelNames: ['event'],
      registers,
    }),
    liveDropped: new Counter({
      name: 'earshot_live_streams_dropped_total',
      help: 'Live streams closed because their client stopped reading.',
      registers,
    }),
    nowPlayingPolls: new Counter({
      name: 'earshot_now_playing_polls_total',
      help: 'Asks of what a watched user plays now, by outcome (the calls are in earshot_spotify_requests_total).',
      labelNames: ['outcome'],
      registers,
    }),
    nowPlayingWatched: new Gauge({
      name: 'earshot_now_playing_watched_users',
      help: 'Users with a friend watching live on this process: whose now playing is asked.',
      registers,
    }),
    visitorFillCalls: new Counter({
      name: 'earshot_visitor_fill_calls_total',
      help: "Calls to Spotify with Earshot's own token for visitors' pages: made, or refused (over_budget, rate_limited).",
      labelNames: ['outcome'],
      registers,
    }),
  };
}

/** How this process talks to Spotify, with every call and rate-limit wait counted. */
export function createSpotifyHttp(
  metrics: Metrics,
  options: Partial<SpotifyHttpOptions> = {},
): SpotifyHttp {
  return {
    gate: new SpotifyRateGate(),
    options: { ...defaultHttpOptions, ...options },
    observe(endpoint, status, seconds) {
      metrics.spotifyRequests.inc({ endpoint, status: String(status) });
      metrics.spotifyRequestSeconds.observe({ endpoint }, seconds);
    },
    observeRateLimitWait(seconds) {
      metrics.rateLimitWaitSeconds.inc(seconds);
    },
  };
}
