import type { Account, DeviceType, Play, World } from '../world/model';
import { hash32, type Random } from '../world/random';
import { clientGeneration, Listener } from './listener';
import type { Audiobook, Chapter, Episode, Show, SpokenCatalogue } from './spoken';

/**
 * The rows of a person's streaming history as Spotify logs them, built from the world's plays:
 * every play of `world.history` becomes exactly one music row (names from the catalogue), and
 * episode and audiobook rows are added in the longer pauses between plays. What the world does
 * not model (reasons, sessions, devices' names, addresses, offline and private listening) is
 * derived from the seed, the account and the play's time, so the same world always gives the
 * same rows, whichever export asks.
 */

export interface TrackLabel {
  uri: string;
  /** Null for a play of a track the catalogue does not know, as for local files on Spotify. */
  name: string | null;
  artist: string | null;
  album: string | null;
}

export type RowContent =
  | { kind: 'track'; track: TrackLabel }
  | { kind: 'episode'; episode: Episode }
  | { kind: 'chapter'; chapter: Chapter };

export interface StreamRow {
  /** When the play ended (ms). */
  ts: number;
  platform: string;
  /** Legacy `user_agent_decrypted`. */
  userAgent: string;
  msPlayed: number;
  country: string;
  ip: string;
  content: RowContent;
  /** A music video or video podcast: listed in the `Streaming_History_Video_*` files. */
  video: boolean;
  reasonStart: string;
  reasonEnd: string;
  shuffle: boolean;
  skipped: boolean | null;
  offline: boolean | null;
  offlineTimestamp: number | null;
  incognito: boolean;
}

export interface RowOptions {
  /** The export's date: plays that ended up to it (inclusive). */
  untilMs: number;
  /** Leave out rows that ended at or before this time (they are still walked through). */
  sinceMs?: number;
  /** Whether to add audiobook chapters (the legacy format has no fields for them). */
  audiobooks: boolean;
}

/** A pause longer than this between two plays starts a new listening session. */
const SESSION_GAP_MS = 10 * 60_000;
/** The next play starting this soon after one ended was started by it (track done, skip). */
const FOLLOW_ON_MS = 15_000;
/** Pauses at least this long may hold an episode or a chapter. */
const SPOKEN_GAP_MS = 20 * 60_000;
/** `skipped` was null in rows logged before this. */
const SKIPPED_LOGGED_FROM = Date.UTC(2020, 2, 1);
const VIDEO_PODCASTS_FROM = Date.UTC(2020, 5, 1);
const MUSIC_VIDEOS_FROM = Date.UTC(2024, 2, 1);
const AUDIOBOOKS_FROM = Date.UTC(2023, 9, 1);
/** Each audiobook is listened to for about this long before the next. */
const AUDIOBOOK_PERIOD_MS = 60 * 86_400_000;

const FOLLOW_ON_REASONS = new Set(['trackdone', 'fwdbtn', 'backbtn']);

type Weighted = readonly [readonly string[], readonly number[]];

const SESSION_STARTS: Record<DeviceType, Weighted> = {
  smartphone: [
    ['appload', 'clickrow', 'playbtn'],
    [0.35, 0.45, 0.2],
  ],
  computer: [
    ['clickrow', 'playbtn', 'appload'],
    [0.5, 0.3, 0.2],
  ],
  speaker: [
    ['remote', 'clickrow'],
    [0.7, 0.3],
  ],
};

const SESSION_ENDS: Record<DeviceType, Weighted> = {
  smartphone: [
    ['endplay', 'logout', 'unexpected-exit-while-paused', 'unexpected-exit', 'remote'],
    [0.35, 0.15, 0.3, 0.1, 0.1],
  ],
  computer: [
    ['endplay', 'logout', 'unexpected-exit-while-paused', 'remote'],
    [0.5, 0.25, 0.15, 0.1],
  ],
  speaker: [
    ['remote', 'endplay'],
    [0.6, 0.4],
  ],
};

/** A uniform number in [0, 1) from a hash: cheaper than a generator for one draw. */
function unit(hash: number): number {
  return hash / 0x100000000;
}

function pickWeighted([items, weights]: Weighted, draw: number): string {
  let total = 0;
  for (const weight of weights) total += weight;
  let target = draw * total;
  for (let index = 0; index < items.length; index++) {
    target -= weights[index] ?? 0;
    if (target < 0) return items[index] ?? '';
  }
  return items[items.length - 1] ?? '';
}

interface Session {
  incognito: boolean;
  offline: boolean;
}

/** How a person listens to what the world does not model. */
interface Habits {
  podcastRate: number;
  shows: readonly Show[];
  audiobookRate: number;
  audiobooks: readonly Audiobook[];
  incognitoRate: number;
  offlineRate: number;
  musicVideoRate: number;
}

function habits(listener: Listener, account: Account, spoken: SpokenCatalogue): Habits {
  const random = listener.randomAt(0x68616269);
  const podcaster = random.chance(0.7);
  const reader = account.product === 'premium' && random.chance(0.35);
  return {
    podcastRate: podcaster ? random.between(0.05, 0.35) : 0,
    shows: random.sample(spoken.shows, random.int(1, 5)),
    audiobookRate: reader ? random.between(0.05, 0.15) : 0,
    audiobooks: random.sample(spoken.audiobooks, random.int(2, 4)),
    incognitoRate: random.between(0, 0.03),
    offlineRate: random.between(0.02, 0.1),
    musicVideoRate: random.between(0, 0.02),
  };
}

/** The shows a person listens to: what their library lists under "shows". */
export function followedShows(world: World, account: Account, spoken: SpokenCatalogue): Show[] {
  const listening = habits(new Listener(world.seed, account.id), account, spoken);
  return listening.podcastRate > 0 ? [...listening.shows] : [];
}

function offlineTimestamp(device: DeviceType, startedAt: number, draw: number): number | null {
  const loadedAt = startedAt - Math.floor(draw * 90_000);
  const generation = clientGeneration(device, startedAt);
  if (generation === 'early') return loadedAt;
  return generation === 'middle' ? null : Math.floor(loadedAt / 1000);
}

/**
 * The account's rows, oldest first. Walks `world.history` lazily with one play of look-ahead
 * (whether the next play follows at once decides how this one ended).
 */
export function* streamingRows(
  world: World,
  account: Account,
  spoken: SpokenCatalogue,
  options: RowOptions,
): Generator<StreamRow> {
  const builder = new RowBuilder(world, account, spoken, options);
  let pending: Play | undefined;
  for (const play of world.history(account.id, options.untilMs)) {
    if (pending) yield* builder.rows(pending, play);
    pending = play;
  }
  if (pending) yield* builder.rows(pending, undefined);
}

class RowBuilder {
  private readonly listener: Listener;
  private readonly habits: Habits;
  private readonly labels = new Map<string, TrackLabel>();
  private readonly sinceMs: number;
  private previous: { play: Play; reasonEnd: string } | undefined;
  private session: Session = { incognito: false, offline: false };

  constructor(
    private readonly world: World,
    private readonly account: Account,
    private readonly spoken: SpokenCatalogue,
    private readonly options: RowOptions,
  ) {
    this.listener = new Listener(world.seed, account.id);
    this.habits = habits(this.listener, account, spoken);
    this.sinceMs = options.sinceMs ?? -Infinity;
  }

  *rows(play: Play, next: Play | undefined): Generator<StreamRow> {
    const row = this.musicRow(play, next);
    if (row.ts > this.sinceMs) yield row;
    if (!next) return;
    const spokenRow = this.spokenRow(play, next);
    if (spokenRow && spokenRow.ts > this.sinceMs) yield spokenRow;
  }

  private label(trackId: string): TrackLabel {
    let label = this.labels.get(trackId);
    if (!label) {
      const track = this.world.track(trackId);
      const album = track && this.world.album(track.albumId);
      const artistId = track?.artistIds[0];
      label = {
        uri: `spotify:track:${trackId}`,
        name: track?.name ?? null,
        artist: (artistId && this.world.artist(artistId)?.name) ?? null,
        album: album?.name ?? null,
      };
      this.labels.set(trackId, label);
    }
    return label;
  }

  private musicRow(play: Play, next: Play | undefined): StreamRow {
    const key = this.listener.hashAt(play.playedAt, play.msPlayed);
    const startedAt = play.playedAt - play.msPlayed;
    const previous = this.previous;
    const newSession =
      !previous ||
      previous.play.device !== play.device ||
      startedAt - previous.play.playedAt > SESSION_GAP_MS;
    if (newSession) {
      const random = this.listener.randomAt(0x73657373, startedAt);
      this.session = {
        incognito: random.chance(this.habits.incognitoRate),
        offline: play.device === 'smartphone' && random.chance(this.habits.offlineRate),
      };
    }

    const nextStart = next ? next.playedAt - next.msPlayed : Infinity;
    const continues =
      next !== undefined &&
      next.device === play.device &&
      nextStart - play.playedAt <= SESSION_GAP_MS;
    const followedAtOnce = continues && nextStart - play.playedAt <= FOLLOW_ON_MS;
    const durationMs = this.world.track(play.trackId)?.durationMs ?? play.msPlayed;
    const completed = play.msPlayed >= durationMs - 2_000;
    const endDraw = unit(hash32(key, 1));
    const reasonEnd = completed
      ? 'trackdone'
      : followedAtOnce
        ? endDraw < 0.85
          ? 'fwdbtn'
          : 'backbtn'
        : continues
          ? 'endplay'
          : pickWeighted(SESSION_ENDS[play.device], endDraw);

    const startDraw = unit(hash32(key, 2));
    let reasonStart: string;
    if (newSession || !previous) {
      reasonStart = pickWeighted(SESSION_STARTS[play.device], startDraw);
    } else if (
      startedAt - previous.play.playedAt <= FOLLOW_ON_MS &&
      FOLLOW_ON_REASONS.has(previous.reasonEnd)
    ) {
      reasonStart = previous.reasonEnd;
    } else {
      reasonStart = startDraw < 0.7 ? 'clickrow' : 'playbtn';
    }
    this.previous = { play, reasonEnd };

    const video =
      play.device === 'smartphone' &&
      play.playedAt >= MUSIC_VIDEOS_FROM &&
      unit(hash32(key, 3)) < this.habits.musicVideoRate;
    const cutShort = !completed && ['fwdbtn', 'backbtn', 'endplay'].includes(reasonEnd);
    return {
      ts: play.playedAt,
      platform: this.listener.platform(play.device, startedAt),
      userAgent: this.listener.userAgent(play.device, startedAt),
      msPlayed: play.msPlayed,
      country: this.account.country,
      ip: this.listener.ipAddress(play.device, startedAt),
      content: { kind: 'track', track: this.label(play.trackId) },
      video,
      // Music videos log neither where the play came from nor offline state.
      reasonStart: video ? 'unknown' : reasonStart,
      reasonEnd,
      shuffle: play.shuffle,
      skipped: play.playedAt < SKIPPED_LOGGED_FROM ? null : cutShort,
      offline: video ? null : this.session.offline,
      offlineTimestamp: video
        ? null
        : offlineTimestamp(play.device, startedAt, unit(hash32(key, 4))),
      incognito: this.session.incognito,
    };
  }

  /** An episode or chapter in the pause after `play`, if the person listened to one then. */
  private spokenRow(play: Play, next: Play): StreamRow | null {
    const startedAt = play.playedAt + 60_000;
    const room = next.playedAt - next.msPlayed - 30_000 - startedAt;
    if (room < SPOKEN_GAP_MS) return null;
    const random = this.listener.randomAt(0x73706b6e, play.playedAt);
    if (random.chance(this.habits.podcastRate)) {
      const show = random.pick(this.habits.shows);
      const latest = this.spoken.latestEpisodeNumber(show, startedAt);
      if (latest === 0) return null;
      // Mostly the newest episode, sometimes catching up on one of the previous few.
      const episode = this.spoken.episode(show, Math.max(1, latest - random.int(0, 3)));
      return this.spokenListen(play.device, startedAt, room, random, {
        content: { kind: 'episode', episode },
        durationMs: episode.durationMs,
        video: show.video && startedAt >= VIDEO_PODCASTS_FROM,
      });
    }
    if (!this.options.audiobooks || startedAt < AUDIOBOOKS_FROM) return null;
    if (!random.chance(this.habits.audiobookRate)) return null;
    const period = Math.floor(startedAt / AUDIOBOOK_PERIOD_MS);
    const books = this.habits.audiobooks;
    const book = books[hash32(period) % books.length] as Audiobook;
    const progress = (startedAt - period * AUDIOBOOK_PERIOD_MS) / AUDIOBOOK_PERIOD_MS;
    const chapter = this.spoken.chapter(book, 1 + Math.floor(progress * book.chapters));
    return this.spokenListen(play.device, startedAt, room, random, {
      content: { kind: 'chapter', chapter },
      durationMs: chapter.durationMs,
      video: false,
    });
  }

  private spokenListen(
    device: DeviceType,
    startedAt: number,
    room: number,
    random: Random,
    what: { content: RowContent; durationMs: number; video: boolean },
  ): StreamRow {
    const whole = Math.min(what.durationMs, room);
    const roll = random.next();
    // Mostly to the end (or as far as the pause allows); some abandoned early, some at once.
    const msPlayed =
      roll < 0.6 ? whole : roll < 0.9 ? random.int(30_000, whole) : random.int(500, 29_999);
    const finished = msPlayed === what.durationMs;
    const reasonEnd = finished
      ? 'trackdone'
      : pickWeighted(
          [
            ['endplay', 'logout', 'unexpected-exit-while-paused'],
            [0.5, 0.2, 0.3],
          ],
          random.next(),
        );
    const reasonStart = pickWeighted(
      [
        ['clickrow', 'playbtn', 'appload'],
        [0.6, 0.25, 0.15],
      ],
      random.next(),
    );
    const ts = startedAt + msPlayed;
    return {
      ts,
      platform: this.listener.platform(device, startedAt),
      userAgent: this.listener.userAgent(device, startedAt),
      msPlayed,
      country: this.account.country,
      ip: this.listener.ipAddress(device, startedAt),
      content: what.content,
      video: what.video,
      reasonStart,
      reasonEnd,
      shuffle: false,
      skipped: ts < SKIPPED_LOGGED_FROM ? null : false,
      offline: false,
      offlineTimestamp: offlineTimestamp(device, startedAt, random.next()),
      incognito: false,
    };
  }
}
