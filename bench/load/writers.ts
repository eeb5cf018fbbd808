/**
 * bench:load's writers, in a process of their own as a sync worker runs beside the API processes:
 * active listeners who finish a track every `pace` seconds on average, polled when the product's
 * schedule says, each poll run by the product's own `syncRecentPlays` (Spotify client, catalogue
 * upserts, the plays INSERT … ON CONFLICT DO NOTHING with its triggers, the account's cursor and
 * next due time). Spotify is a stand-in on loopback serving the two endpoints the run touches:
 * `GET /me/player/recently-played` from the listeners' simulated plays, and `PUT`/`DELETE
 * /me/tracks` for the API's likes. Driven by its parent over IPC (`WriterMessage`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { connectPostgres } from '../../apps/server/src/db/client';
import { createMetrics, createSpotifyHttp } from '../../apps/server/src/observability/metrics';
import { tokenSourceFor } from '../../apps/server/src/services/spotify-tokens';
import { nextRecentInterval, syncRecentPlays } from '../../apps/server/src/services/sync-recent';
import { createTokenCipher } from '../../apps/server/src/services/token-cipher';
import { SpotifyClient } from '../../apps/server/src/spotify/client';
import type { SpotifyTrack } from '../../apps/server/src/spotify/schemas';
import { Random } from '../lib/random';

export interface WriterSettings {
  databaseUrl: string;
  /** The server's ENCRYPTION_KEY (hex): access tokens are stored as Earshot stores them. */
  encryptionKey: string;
  port: number;
  /** Listeners: the first this many users (by their generated number). */
  listeners: number;
  /** Mean seconds between two plays of one listener (gaps uniform in 0.5–1.5 × pace). */
  pace: number;
  /** Seconds between two polls of a listener; 0: as `nextRecentInterval` schedules them. */
  pollInterval: number;
  /** Syncs in flight at most (a worker's concurrency). */
  concurrency: number;
  /** Added to every stand-in answer, in ms (Spotify's own latency). */
  spotifyLatencyMs: number;
  seed: number;
}

/** Parent → writers. */
export type WriterMessage = { type: 'start' } | { type: 'stop' };

/** One poll as run. Times are `Date.now()` milliseconds. */
export interface PollRecord {
  at: number;
  ms: number;
  /** How late it started after it fell due. */
  lagMs: number;
  fetched: number;
  stored: number;
  error?: string;
}

/** Writers → parent. */
export type WriterReport =
  | {
      type: 'ready';
      listeners: number;
      tracks: number;
      setupSeconds: number;
      /** Seconds between two polls of a listener, on average, at the start. */
      meanIntervalSec: number;
    }
  | { type: 'started'; at: number }
  | {
      type: 'stopped';
      polls: PollRecord[];
      /** Stand-in calls by endpoint (`PUT /me/tracks`, …); anything else is `unexpected …`. */
      calls: Record<string, number>;
    }
  | { type: 'failed'; error: string };

/** The scopes Earshot asks for that the run needs. */
const SCOPES = 'user-read-recently-played user-library-read user-library-modify';
/** Each listener plays mostly from the tracks they played last, sometimes something else. */
const RECENT_TRACKS = 20;
const OWN_SHARE = 0.7;
const OTHER_TRACKS = 3000;

interface Listener {
  userId: string;
  random: Random;
  /** Indexes into `tracks`. */
  own: number[];
  /** Simulated plays not yet forgotten, oldest first. */
  plays: { at: number; track: number; context: { type: string; uri: string } | null }[];
  nextPlayAt: number;
  /** Seconds between two of its polls, at the start. */
  interval: number;
  dueAt: number;
}

const settings = JSON.parse(process.env.BENCH_WRITERS ?? '{}') as WriterSettings;
const send = (message: WriterReport) => process.send?.(message);

const database = connectPostgres(settings.databaseUrl, settings.concurrency + 1);
const { db, pool } = database;
const cipher = createTokenCipher(Buffer.from(settings.encryptionKey, 'hex'));
const baseUrl = `http://127.0.0.1:${settings.port}`;
const spotify = new SpotifyClient(
  {
    clientId: 'earshot-bench',
    clientSecret: undefined,
    accountsUrl: `${baseUrl}/accounts`,
    apiUrl: `${baseUrl}/v1`,
    sdkUrl: `${baseUrl}/sdk.js`,
    redirectUri: `${baseUrl}/callback`,
    sandboxMounted: false,
  },
  createSpotifyHttp(createMetrics()),
);

const tracks: SpotifyTrack[] = [];
const listeners = new Map<string, Listener>();
const calls: Record<string, number> = {};
const count = (endpoint: string) => {
  calls[endpoint] = (calls[endpoint] ?? 0) + 1;
};

function nextGap(listener: Listener): number {
  return settings.pace * 1000 * (0.5 + listener.random.next());
}

/** The listener's plays up to now, simulated as time passes. */
function playsUntil(listener: Listener, now: number) {
  while (listener.nextPlayAt <= now) {
    const { random } = listener;
    const own = listener.own.length > 0 && random.chance(OWN_SHARE);
    const track = own ? random.pick(listener.own) : random.int(0, tracks.length - 1);
    const roll = random.next();
    const album = tracks[track]!.album.id;
    listener.plays.push({
      at: Math.floor(listener.nextPlayAt),
      track,
      context:
        roll < 0.45
          ? { type: 'album', uri: `spotify:album:${album}` }
          : roll < 0.75
            ? { type: 'playlist', uri: `spotify:playlist:${random.spotifyId()}` }
            : null,
    });
    listener.nextPlayAt += nextGap(listener);
  }
  // Spotify remembers the last 50.
  if (listener.plays.length > 50) listener.plays.splice(0, listener.plays.length - 50);
  return listener.plays;
}

/** `GET /v1/me/player/recently-played?limit=50&after=…`: newest first, after the cursor. */
function recentlyPlayed(listener: Listener, url: URL) {
  const after = Number(url.searchParams.get('after') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const items = playsUntil(listener, Date.now())
    .filter((play) => play.at > after)
    .slice(-limit)
    .reverse()
    .map((play) => ({
      track: tracks[play.track]!,
      played_at: new Date(play.at).toISOString(),
      context: play.context,
    }));
  return {
    items,
    next: null,
    cursors:
      items.length > 0
        ? {
            after: String(Date.parse(items[0]!.played_at)),
            before: String(Date.parse(items.at(-1)!.played_at)),
          }
        : null,
  };
}

function answer(response: ServerResponse, status: number, body?: unknown) {
  const send = () => {
    if (body === undefined) response.writeHead(status).end();
    else
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  if (settings.spotifyLatencyMs > 0) setTimeout(send, settings.spotifyLatencyMs);
  else send();
}

/** The stand-in: only what the run needs, with Spotify's status codes and error shape. */
function standIn(request: IncomingMessage, response: ServerResponse) {
  request.resume();
  const url = new URL(request.url ?? '/', baseUrl);
  const endpoint = `${request.method} ${url.pathname.replace(/^\/v1/, '')}`;
  const token = /^Bearer bench-(.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (
    endpoint === 'GET /me/player/recently-played' ||
    /^(PUT|DELETE) \/me\/tracks$/.test(endpoint)
  ) {
    count(endpoint);
    if (!token)
      return answer(response, 401, { error: { status: 401, message: 'Invalid access token' } });
    if (endpoint.startsWith('GET')) {
      const listener = listeners.get(token);
      if (!listener)
        return answer(response, 403, {
          error: { status: 403, message: 'Not a listener of this run' },
        });
      return answer(response, 200, recentlyPlayed(listener, url));
    }
    return answer(response, 200);
  }
  count(`unexpected ${endpoint}`);
  return answer(response, 404, {
    error: { status: 404, message: 'Not served by the benchmark stand-in' },
  });
}

async function setUp() {
  const started = performance.now();
  // Every user can call Spotify (the likers among them): a token that outlives the run.
  const users = await pool.query<{ id: string }>('SELECT user_id AS id FROM spotify_accounts');
  const ids = users.rows.map((row) => row.id);
  await pool.query(
    `UPDATE spotify_accounts a SET access_token_encrypted = t.token,
       access_token_expires_at = now() + interval '1 day', scopes = $3, status = 'active'
     FROM unnest($1::uuid[], $2::text[]) AS t(id, token) WHERE a.user_id = t.id`,
    [ids, ids.map((id) => cipher.encrypt(`bench-${id}`)), SCOPES],
  );

  // The listeners and the tracks they played last.
  const chosen = await pool.query<{ id: string; recent: string[] }>(
    `SELECT u.id, ARRAY(SELECT track_id FROM plays WHERE user_id = u.id
                  ORDER BY played_at DESC LIMIT ${RECENT_TRACKS}) AS recent
     FROM users u WHERE u.spotify_id LIKE 'bench-%'
     ORDER BY substr(u.spotify_id, 7)::int LIMIT $1`,
    [settings.listeners],
  );
  const others = await pool.query<{ id: string }>(
    `SELECT id FROM tracks ORDER BY md5(id || $1::text) LIMIT ${OTHER_TRACKS}`,
    [settings.seed],
  );
  const trackIds = [
    ...new Set([...chosen.rows.flatMap((row) => row.recent), ...others.rows.map((row) => row.id)]),
  ];
  // The tracks as Spotify describes them, from what Earshot stored of them: a sync rewrites
  // them with the same values, as it does with every track it sees again.
  const described = await pool.query<{ track: SpotifyTrack }>(
    `SELECT json_build_object(
       'id', t.id, 'name', t.name, 'duration_ms', t.duration_ms, 'explicit', t.explicit,
       'popularity', t.popularity, 'external_ids', json_build_object('isrc', t.isrc),
       'track_number', t.track_number, 'disc_number', t.disc_number,
       'artists', (SELECT json_agg(json_build_object('id', a.id, 'name', a.name) ORDER BY ta.position)
                   FROM track_artists ta JOIN artists a ON a.id = ta.artist_id WHERE ta.track_id = t.id),
       'album', json_build_object(
         'id', al.id, 'name', al.name, 'album_type', al.album_type, 'release_date', al.release_date,
         'release_date_precision', al.release_date_precision, 'total_tracks', al.total_tracks,
         'images', CASE WHEN al.picture IS NULL THEN '[]'::json
                   ELSE json_build_array(json_build_object('url', al.picture, 'width', 300, 'height', 300)) END,
         'artists', coalesce((SELECT json_agg(json_build_object('id', a.id, 'name', a.name) ORDER BY aa.position)
                              FROM album_artists aa JOIN artists a ON a.id = aa.artist_id
                              WHERE aa.album_id = al.id), '[]'::json))
     ) AS track
     FROM tracks t JOIN albums al ON al.id = t.album_id WHERE t.id = ANY($1::text[])`,
    [trackIds],
  );
  const index = new Map<string, number>();
  for (const { track } of described.rows) {
    // JSON nulls stand for fields Spotify leaves out.
    const clean = JSON.parse(JSON.stringify(track), (_, value) =>
      value === null ? undefined : value,
    ) as SpotifyTrack;
    index.set(clean.id!, tracks.length);
    tracks.push(clean);
  }
  for (const [n, row] of chosen.rows.entries()) {
    const listener: Listener = {
      userId: row.id,
      random: new Random(settings.seed * 1_000_003 + n),
      own: row.recent.map((id) => index.get(id)).filter((i): i is number => i !== undefined),
      plays: [],
      nextPlayAt: 0,
      interval: settings.pollInterval,
      dueAt: 0,
    };
    if (listener.interval <= 0) {
      // What the product's schedule makes of this listener's pace: a window's plays' gaps.
      const times = [0];
      for (let k = 0; k < 25; k++) times.push(times.at(-1)! + nextGap(listener));
      listener.interval = nextRecentInterval(times, null);
    }
    listeners.set(row.id, listener);
  }
  return performance.now() - started;
}

/**
 * Each listener's last poll is a uniform fraction of its interval ago (the steady state of a
 * running schedule) and its cursor; its plays since then are simulated, whatever an earlier run
 * stored (so that a run soon after another writes at the same rate). Writes the cursors and due
 * times as a sync leaves them.
 */
async function schedule(now: number): Promise<void> {
  const rows: { id: string; cursor: number; interval: number; last: number; due: number }[] = [];
  for (const listener of listeners.values()) {
    const { random, interval } = listener;
    const last = now - random.next() * interval * 1000;
    listener.nextPlayAt = last + random.next() * nextGap(listener);
    listener.dueAt = last + interval * 1000;
    rows.push({
      id: listener.userId,
      cursor: Math.floor(last),
      interval,
      last,
      due: listener.dueAt,
    });
  }
  await pool.query(
    `UPDATE spotify_accounts a SET recent_cursor_ms = s.cursor, recent_interval_sec = s.interval,
       recent_synced_at = to_timestamp(s.last / 1000.0), recent_due_at = to_timestamp(s.due / 1000.0)
     FROM unnest($1::uuid[], $2::bigint[], $3::int[], $4::float8[], $5::float8[])
       AS s(id, cursor, interval, last, due)
     WHERE a.user_id = s.id`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.cursor),
      rows.map((r) => Math.round(r.interval)),
      rows.map((r) => r.last),
      rows.map((r) => r.due),
    ],
  );
}

const polls: PollRecord[] = [];
let running = false;
let inFlight = 0;
let idle: (() => void) | undefined;
/** Listeners in due order: polled when due, then again when the sync says. */
let queue: Listener[] = [];

function enqueue(listener: Listener) {
  let low = 0;
  let high = queue.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (queue[mid]!.dueAt <= listener.dueAt) low = mid + 1;
    else high = mid;
  }
  queue.splice(low, 0, listener);
}

async function poll(listener: Listener) {
  const at = Date.now();
  const lagMs = at - listener.dueAt;
  try {
    // As the job runner runs a sync-recent job (`jobs/runner.ts` runUserSync).
    const auth = tokenSourceFor(db, cipher, spotify, listener.userId);
    const result = await syncRecentPlays(db, spotify, auth, listener.userId);
    polls.push({ at, ms: Date.now() - at, lagMs, fetched: result.fetched, stored: result.stored });
    listener.dueAt = result.nextDueAt.getTime();
    enqueue(listener);
  } catch (error) {
    polls.push({ at, ms: Date.now() - at, lagMs, fetched: 0, stored: 0, error: String(error) });
  } finally {
    inFlight--;
    if (!running && inFlight === 0) idle?.();
  }
}

function dispatch() {
  const now = Date.now();
  while (running && inFlight < settings.concurrency && queue.length > 0 && queue[0]!.dueAt <= now) {
    inFlight++;
    void poll(queue.shift()!);
  }
}

const server = createServer(standIn);
let timer: NodeJS.Timeout | undefined;

process.on('message', (message: WriterMessage) => {
  void (async () => {
    try {
      if (message.type === 'start') {
        await schedule(Date.now());
        queue = [...listeners.values()].sort((a, b) => a.dueAt - b.dueAt);
        running = true;
        timer = setInterval(dispatch, 20);
        send({ type: 'started', at: Date.now() });
      } else if (message.type === 'stop') {
        running = false;
        clearInterval(timer);
        if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
        send({ type: 'stopped', polls, calls });
        server.close();
        await database.close();
        process.disconnect();
      }
    } catch (error) {
      send({ type: 'failed', error: String((error as Error).stack ?? error) });
    }
  })();
});

try {
  server.listen(settings.port, '127.0.0.1');
  await once(server, 'listening');
  const setupMs = await setUp();
  const intervals = [...listeners.values()].map((listener) => listener.interval);
  const meanIntervalSec = intervals.reduce((a, b) => a + b, 0) / Math.max(1, intervals.length);
  send({
    type: 'ready',
    listeners: listeners.size,
    tracks: tracks.length,
    setupSeconds: Math.round(setupMs / 100) / 10,
    meanIntervalSec: Math.round(meanIntervalSec),
  });
} catch (error) {
  send({ type: 'failed', error: String((error as Error).stack ?? error) });
}
