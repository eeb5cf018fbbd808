import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Metrics } from '../observability/metrics';
import type { SpotifyClient } from '../spotify/client';
import type { SpotifyTrack } from '../spotify/schemas';
import { SpotifyError, SpotifyRateLimitedError } from '../spotify/errors';
import { storeTracks } from './catalog';
import { SpotifyDisconnectedError, tokenSourceFor } from './spotify-tokens';
import type { TokenCipher } from './token-cipher';

/** Spotify is asked what one user plays at most this often, by all processes together. */
export const NOW_PLAYING_INTERVAL_SEC = 30;
/** The budget's window: Spotify counts an app's calls over a rolling 30 s. */
const BUDGET_WINDOW_MS = 30_000;
/** Calls in flight at once: a tick's polls go out a few at a time. */
const CONCURRENT_POLLS = 4;
/** A playing track whose progress is this far from where it should be was sought. */
const SEEK_TOLERANCE_MS = 5_000;
const ENDPOINT = 'GET /me/player/currently-playing';

export interface NowPlayingSettings {
  /** How often the watched users are looked at (a user is still asked once per 30 s at most). */
  tickMs: number;
  /** Calls to `/me/player/currently-playing` this process may make per 30 s. */
  budgetPer30s: number;
}

interface Claimed extends Record<string, unknown> {
  user_id: string;
  track_id: string | null;
  is_playing: boolean;
  progress_ms: number | null;
  observed_at: Date | string | null;
}

/**
 * Asks Spotify what users play, only for the users `watched` names (those with a friend's live
 * stream open on this process), each at most every 30 s whichever process asks: the
 * `now_playing.checked_at` column is the lease, taken in the same statement that picks who is due.
 * What changed (a new track, a pause, a seek) is written there and announced by its trigger to
 * every process's streams.
 */
export class NowPlayingPoller {
  readonly #db: Db;
  readonly #cipher: TokenCipher;
  readonly #spotify: SpotifyClient;
  readonly #metrics: Metrics;
  readonly #settings: NowPlayingSettings;
  readonly #watched: () => string[];
  readonly #log: (error: unknown) => void;
  /** When this process's recent calls went out, oldest first. */
  #calls: number[] = [];
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(deps: {
    db: Db;
    cipher: TokenCipher;
    spotify: SpotifyClient;
    metrics: Metrics;
    settings: NowPlayingSettings;
    watched: () => string[];
    log: (error: unknown) => void;
  }) {
    this.#db = deps.db;
    this.#cipher = deps.cipher;
    this.#spotify = deps.spotify;
    this.#metrics = deps.metrics;
    this.#settings = deps.settings;
    this.#watched = deps.watched;
    this.#log = deps.log;
  }

  start(): void {
    this.#timer ??= setInterval(() => this.kick(), this.#settings.tickMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** Polls the watched users who are due now (one round at a time). */
  kick(): Promise<void> {
    this.#running ??= this.#round().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  #budgetLeft(): number {
    const since = Date.now() - BUDGET_WINDOW_MS;
    while (this.#calls.length > 0 && this.#calls[0]! <= since) this.#calls.shift();
    return Math.max(0, this.#settings.budgetPer30s - this.#calls.length);
  }

  async #round(): Promise<void> {
    const watched = this.#watched();
    this.#metrics.nowPlayingWatched.set(watched.length);
    if (watched.length === 0) return;
    // Spotify asked the app to wait: asking now would only be refused.
    if (this.#spotify.http.gate.delayFor(ENDPOINT).waitMs > 0) return;
    const budget = this.#budgetLeft();
    if (budget === 0) {
      this.#metrics.nowPlayingPolls.inc({ outcome: 'over_budget' });
      return;
    }
    try {
      const due = await this.#claim(watched, budget, NOW_PLAYING_INTERVAL_SEC);
      for (let start = 0; start < due.length; start += CONCURRENT_POLLS) {
        await Promise.all(due.slice(start, start + CONCURRENT_POLLS).map((row) => this.#poll(row)));
      }
    } catch (error) {
      // The database is away, say: the next tick tries again.
      this.#metrics.nowPlayingPolls.inc({ outcome: 'error' });
      this.#log(error);
    }
  }

  /**
   * Takes the lease of up to `limit` of `userIds` with an active Spotify connection, not asked in
   * the last `intervalSec`, least recently asked first; answers what each was last seen playing.
   */
  async #claim(userIds: string[], limit: number, intervalSec: number): Promise<Claimed[]> {
    const interval = `${intervalSec} seconds`;
    const result = await this.#db.execute<Claimed>(sql`
      WITH due AS (
        SELECT a.user_id FROM spotify_accounts a LEFT JOIN now_playing n USING (user_id)
        WHERE a.user_id = ANY(${sql.param(userIds)}::uuid[]) AND a.status = 'active'
          AND (n.checked_at IS NULL OR n.checked_at <= now() - ${interval}::interval)
        ORDER BY n.checked_at NULLS FIRST LIMIT ${limit}
      )
      INSERT INTO now_playing (user_id, checked_at) SELECT user_id, now() FROM due
      ON CONFLICT (user_id) DO UPDATE SET checked_at = excluded.checked_at
        WHERE now_playing.checked_at <= now() - ${interval}::interval
      RETURNING user_id, track_id, is_playing, progress_ms, observed_at`);
    return result.rows;
  }

  async #poll(last: Claimed): Promise<void> {
    this.#calls.push(Date.now());
    const auth = tokenSourceFor(this.#db, this.#cipher, this.#spotify, last.user_id);
    let current: Awaited<ReturnType<SpotifyClient['currentlyPlaying']>>;
    try {
      current = await this.#spotify.currentlyPlaying(auth);
    } catch (error) {
      const outcome =
        error instanceof SpotifyDisconnectedError
          ? 'disconnected'
          : error instanceof SpotifyRateLimitedError
            ? 'rate_limited'
            : error instanceof SpotifyError
              ? 'error'
              : undefined;
      if (!outcome) throw error;
      this.#metrics.nowPlayingPolls.inc({ outcome });
      return;
    }
    this.#metrics.nowPlayingPolls.inc({ outcome: current?.isPlaying ? 'playing' : 'idle' });
    const [trackId] = current ? await storeTracks(this.#db, [current.track]) : [];
    const now = Date.now();
    const next = {
      trackId: trackId ?? null,
      isPlaying: trackId !== undefined && (current?.isPlaying ?? false),
      progressMs: trackId !== undefined ? (current?.progressMs ?? null) : null,
    };
    if (!changed(last, next, now)) return;
    await this.#db.execute(sql`
      UPDATE now_playing SET track_id = ${next.trackId}, is_playing = ${next.isPlaying},
        progress_ms = ${next.progressMs}, observed_at = ${new Date(now)}
      WHERE user_id = ${last.user_id}`);
  }
}

/** What the player showed right after a play Earshot started. */
export interface StartedPlay {
  track: SpotifyTrack;
  isPlaying: boolean;
  progressMs: number | null;
}

/**
 * A play just started through Earshot, as the player showed it: written where the poller writes
 * what users play, so its trigger announces it to friends on every process now rather than at
 * the next poll, and the 30 s lease starts again from here (no Spotify call is spent on it).
 */
export async function recordStartedPlay(db: Db, userId: string, play: StartedPlay): Promise<void> {
  const [trackId] = await storeTracks(db, [play.track]);
  // The announcing trigger fires on UPDATE: a first row is made, then written like any other.
  await db.execute(sql`
    INSERT INTO now_playing (user_id, checked_at) VALUES (${userId}, now())
    ON CONFLICT (user_id) DO NOTHING`);
  await db.execute(sql`
    UPDATE now_playing SET track_id = ${trackId ?? null}, is_playing = ${play.isPlaying},
      progress_ms = ${play.progressMs}, observed_at = now(), checked_at = now()
    WHERE user_id = ${userId}`);
}

/** Whether what friends see moved: another track, a pause or resume, or a seek. */
function changed(
  last: Claimed,
  next: { trackId: string | null; isPlaying: boolean; progressMs: number | null },
  now: number,
): boolean {
  if (last.track_id !== next.trackId || last.is_playing !== next.isPlaying) return true;
  if (next.trackId === null || last.progress_ms === null || last.observed_at === null) {
    return next.trackId !== null;
  }
  const expected = next.isPlaying
    ? last.progress_ms + (now - new Date(last.observed_at).getTime())
    : last.progress_ms;
  return Math.abs(expected - (next.progressMs ?? 0)) > SEEK_TOLERANCE_MS;
}
