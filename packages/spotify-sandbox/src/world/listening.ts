import { countUpTo, pickArtistTrack, popularityWeight, type Catalogue } from './catalogue';
import { DAY_MS, HOUR_MS, LocalDays, MINUTE_MS } from './local-days';
import type { Account, DeviceType, WorldSizes } from './model';
import { tasteArtist, type People, type PlaylistFollow } from './people';
import { cumulative, hashString, pickCumulative, Random } from './random';

/**
 * Simulated listening, as a pure function of (seed, account, day). Each local day of each account
 * has a plan: how much the person listens that day, in which sessions, what they play and how far
 * into each track they get. A plan is generated when first asked for and kept in a bounded cache;
 * nothing runs in the background, so "listening continues" simply means later days get planned as
 * the clock reaches them, and history years back costs nothing until it is read.
 *
 * The model, per day:
 * - volume: the person's daily plays × the world's scale × weekend lift × day-to-day noise; some
 *   days have no music at all, some little;
 * - sessions of ~9 tracks (log-normal) start at local hours drawn from `HOURLY_RHYTHM` (shifted by
 *   the person's `dayShiftHours`): little at night, a commute bump, most in the evening; sessions
 *   never overlap and a day's plays end by local midnight;
 * - each session is an album (from its start, sometimes from a track), one of the person's
 *   playlists (shuffled or in order), an artist's tracks, or single tracks without a context;
 * - artists come from the taste: favourites (the first ones most), this month's obsession, and with
 *   the person's discovery rate artists of their genres or popular artists at large; new releases of
 *   an artist get played soon after they come out; nothing is played before its release date;
 * - people with the explicit-content filter on never hear explicit tracks;
 * - most plays run the whole track; skips (the person's skip rate, more in shuffle and discovery)
 *   cut a play after a few seconds or part of the way; tracks follow each other almost gaplessly.
 */

/** Relative chance that a session starts in each local hour 0–23. */
export const HOURLY_RHYTHM: readonly number[] = [
  0.9, 0.5, 0.25, 0.12, 0.08, 0.1, 0.35, 1.2, 2.0, 1.6, 1.2, 1.3, 1.6, 1.4, 1.3, 1.5, 1.9, 2.6, 3.2,
  3.6, 3.8, 3.4, 2.6, 1.7,
];

export const CONTEXT_NONE = 0;
export const CONTEXT_ALBUM = 1;
export const CONTEXT_PLAYLIST = 2;
export const CONTEXT_ARTIST = 3;

export const DEVICES: readonly DeviceType[] = ['smartphone', 'computer', 'speaker'];

/** One day of one account's simulated listening, in parallel arrays (one entry per play). */
export interface DayPlan {
  day: number;
  start: number;
  end: number;
  count: number;
  /** Catalogue track indexes. */
  tracks: Int32Array;
  /** When each play ended (`playedAt`). */
  ends: Float64Array;
  played: Int32Array;
  /** CONTEXT_* and the album, playlist or artist index it refers to. */
  contextType: Uint8Array;
  contextRef: Int32Array;
  shuffle: Uint8Array;
  /** Index into DEVICES. */
  device: Uint8Array;
}

const LISTEN_SALT = 0x6c697374;
const OBSESSION_SALT = 0x6f627365;
const PLAN_CACHE_SIZE = 4096;
const NEW_RELEASE_MS = 45 * DAY_MS;
const OBSESSION_SHARE = 0.12;

interface LibraryPlaylist {
  /** Index in People.playlists. */
  index: number;
  /** When it entered the account's library (created or followed). */
  since: number;
  own: boolean;
  tracks: Int32Array;
  addedAt: Float64Array;
}

interface Listener {
  account: Account;
  hash: number;
  days: LocalDays;
  favourites: number[];
  pool: number[];
  playlists: LibraryPlaylist[];
  /** Cumulative session-start weights per local hour. */
  rhythm: Float64Array;
}

/** What a day's sessions share. */
interface Today {
  start: number;
  weekday: number;
  /** The artist the person is into these weeks. */
  obsession: number;
}

/** A play while a day is being planned. */
interface Draft {
  track: number;
  end: number;
  played: number;
  contextType: number;
  contextRef: number;
  shuffle: boolean;
  device: number;
}

export class ListeningModel {
  private readonly listeners: (Listener | undefined)[];
  private readonly plans = new Map<string, DayPlan>();
  private readonly globalArtists: Float64Array;
  private readonly accountIndex: Map<string, number>;
  private follows: Map<string, Map<string, PlaylistFollow>> | undefined;

  constructor(
    private readonly seed: number,
    private readonly catalogue: Catalogue,
    private readonly people: People,
    private readonly sizes: WorldSizes,
  ) {
    this.listeners = people.accounts.map(() => undefined);
    this.accountIndex = new Map(people.accounts.map((account, index) => [account.id, index]));
    this.globalArtists = cumulative(
      catalogue.artists.map((artist) => popularityWeight(artist.popularity)),
    );
  }

  indexOf(accountId: string): number | undefined {
    return this.accountIndex.get(accountId);
  }

  days(account: number): LocalDays {
    return this.listener(account).days;
  }

  /** The plan of one day (cached; at most a few thousand days are kept). */
  plan(account: number, day: number): DayPlan {
    const key = `${account}:${day}`;
    const cached = this.plans.get(key);
    if (cached) {
      this.plans.delete(key);
      this.plans.set(key, cached);
      return cached;
    }
    const plan = this.generate(account, day);
    this.plans.set(key, plan);
    if (this.plans.size > PLAN_CACHE_SIZE) {
      const oldest = this.plans.keys().next().value;
      if (oldest !== undefined) this.plans.delete(oldest);
    }
    return plan;
  }

  /** Generates a day without caching it: for scans over years of history. */
  generate(account: number, day: number): DayPlan {
    const listener = this.listener(account);
    const { days } = listener;
    const start = days.start(day);
    const end = days.start(day + 1);
    const drafts: Draft[] = [];
    if (end > listener.account.createdAt) this.planDay(listener, day, start, end, drafts);
    return toPlan(day, start, end, drafts);
  }

  private planDay(listener: Listener, day: number, start: number, end: number, out: Draft[]) {
    const random = Random.derive(this.seed, LISTEN_SALT, listener.hash, day);
    const { taste } = listener.account;
    const weekday = LocalDays.weekday(day);
    const weekend = weekday === 0 || weekday === 6;
    let volume =
      taste.dailyPlays *
      this.sizes.dailyPlaysScale *
      (weekend ? 1.15 : 1) *
      Math.exp(random.normal(0, 0.35));
    if (random.chance(0.05)) volume = 0;
    else if (random.chance(0.1)) volume *= 0.35;
    const target = Math.round(volume);

    const sessions: { at: number; length: number }[] = [];
    for (let planned = 0; planned < target;) {
      const length = Math.max(
        1,
        Math.min(target - planned, Math.round(Math.exp(random.normal(2.2, 0.6)))),
      );
      const hour = pickCumulative(random, listener.rhythm);
      sessions.push({ at: start + hour * HOUR_MS + random.next() * HOUR_MS, length });
      planned += length;
    }
    sessions.sort((a, b) => a.at - b.at);

    const today: Today = { start, weekday, obsession: this.obsession(listener, day) };
    let cursor = Math.max(start, listener.account.createdAt);
    let first = true;
    for (const session of sessions) {
      const at = Math.round(
        Math.max(session.at, first ? cursor : cursor + random.int(2, 25) * MINUTE_MS),
      );
      if (at >= end) break;
      first = false;
      cursor = this.playSession(random, listener, today, at, end, session.length, out);
    }
  }

  /** Plays one session from `at`; returns when it ended. */
  private playSession(
    random: Random,
    listener: Listener,
    today: Today,
    at: number,
    dayEnd: number,
    length: number,
    out: Draft[],
  ): number {
    const hour = Math.floor((at - today.start) / HOUR_MS);
    const device = deviceFor(random, hour, today.weekday);
    const free = listener.account.product === 'free';
    const playlists = listener.playlists.filter(
      (playlist) => playlist.since <= at && (playlist.addedAt[0] ?? Infinity) <= at,
    );
    const mode = random.weighted(['album', 'playlist', 'artist', 'tracks'] as const, [
      35,
      playlists.length > 0 ? 30 : 0,
      15,
      20,
    ]);
    // Spotify's free plan shuffles playlists and artists on phones.
    const forcedShuffle = free && device === 0;
    let shuffle = false;
    let contextType = CONTEXT_NONE;
    let contextRef = -1;
    let discovery = false;
    let next: () => number;

    if (mode === 'album') {
      const pick = this.pickArtist(random, listener, today.obsession, at);
      discovery = pick.discovery;
      const track = pick.artist < 0 ? -1 : this.pickTrack(random, pick.artist, at);
      if (track < 0) return at;
      const album = this.catalogue.trackAlbum[track] ?? 0;
      const first = this.catalogue.albumFirstTrack[album] ?? 0;
      const size = this.catalogue.albums[album]?.trackIds.length ?? 0;
      shuffle = forcedShuffle || random.chance(0.08);
      const order = Array.from({ length: size }, (_, position) => first + position);
      if (shuffle) random.shuffle(order);
      let position = shuffle || random.chance(0.75) ? 0 : track - first;
      contextType = CONTEXT_ALBUM;
      contextRef = album;
      next = () => (position < order.length ? (order[position++] ?? -1) : -1);
    } else if (mode === 'playlist') {
      const playlist = random.weighted(
        playlists,
        playlists.map((candidate) => (candidate.own ? 3 : 1)),
      );
      const available = countUpTo(playlist.addedAt, at);
      shuffle = forcedShuffle || random.chance(0.6);
      const order = Array.from({ length: available }, (_, position) => position);
      if (shuffle) random.shuffle(order);
      let position = shuffle ? 0 : random.int(0, Math.max(0, available - 1));
      contextType = CONTEXT_PLAYLIST;
      contextRef = playlist.index;
      next = () => (position < order.length ? (playlist.tracks[order[position++] ?? 0] ?? -1) : -1);
    } else if (mode === 'artist') {
      const pick = this.pickArtist(random, listener, today.obsession, at);
      discovery = pick.discovery;
      if (pick.artist < 0) return at;
      shuffle = forcedShuffle || random.chance(0.5);
      contextType = CONTEXT_ARTIST;
      contextRef = pick.artist;
      next = () => this.pickTrack(random, pick.artist, at);
    } else {
      next = () => {
        const pick = this.pickArtist(random, listener, today.obsession, at);
        return pick.artist < 0 ? -1 : this.pickTrack(random, pick.artist, at);
      };
    }

    // With the explicit-content filter on, Spotify skips explicit tracks without playing them.
    const filterExplicit = listener.account.explicitContent.filterEnabled;
    let time = at;
    let previous = -1;
    for (let played = 0; played < length; played++) {
      const track = next();
      if (track < 0) break;
      if (track === previous && contextType !== CONTEXT_ALBUM) continue;
      previous = track;
      if (filterExplicit && this.catalogue.tracks[track]?.explicit) continue;
      const duration = this.catalogue.tracks[track]?.durationMs ?? 0;
      const skipChance =
        listener.account.taste.skipRate * (discovery ? 1.5 : 1) * (shuffle ? 1.2 : 1);
      let ms = duration;
      if (random.chance(skipChance)) {
        ms = random.chance(0.6)
          ? random.int(1_500, 29_000)
          : random.int(30_000, Math.max(30_001, Math.round(duration * 0.85)));
      } else if (played === length - 1 && random.chance(0.08)) {
        ms = random.int(10_000, duration);
      }
      ms = Math.min(ms, duration);
      if (time + ms > dayEnd) break;
      out.push({ track, end: time + ms, played: ms, contextType, contextRef, shuffle, device });
      time += ms + (ms < duration ? random.int(150, 900) : random.int(0, 400));
    }
    return time;
  }

  /** An artist the person would play at `at`: taste, obsession or discovery; -1 if none has music yet. */
  private pickArtist(random: Random, listener: Listener, obsession: number, at: number) {
    const { discoveryRate } = listener.account.taste;
    for (let attempt = 0; attempt < 8; attempt++) {
      const roll = random.next();
      let artist: number;
      let discovery = false;
      if (roll < OBSESSION_SHARE) {
        artist = obsession;
      } else if (roll < OBSESSION_SHARE + (1 - OBSESSION_SHARE) * (1 - discoveryRate)) {
        artist = tasteArtist(random, listener.favourites, listener.pool, 1);
      } else {
        discovery = true;
        artist =
          listener.pool.length > 0 && random.chance(0.8)
            ? random.pick(listener.pool)
            : pickCumulative(random, this.globalArtists);
      }
      if (artist >= 0 && this.hasMusicBy(artist, at)) return { artist, discovery };
    }
    for (let attempt = 0; attempt < 50; attempt++) {
      const artist = pickCumulative(random, this.globalArtists);
      if (this.hasMusicBy(artist, at)) return { artist, discovery: true };
    }
    return { artist: -1, discovery: false };
  }

  /** The artist a person is into this month (30-day stretches). */
  private obsession(listener: Listener, day: number): number {
    const random = Random.derive(this.seed, OBSESSION_SALT, listener.hash, Math.floor(day / 30));
    return tasteArtist(random, listener.favourites, listener.pool, 0.5);
  }

  private hasMusicBy(artist: number, at: number): boolean {
    return (this.catalogue.artistTrackReleases[artist]?.[0] ?? Infinity) <= at;
  }

  /** A track of the artist out by `at`: often its newest release if that is recent. */
  private pickTrack(random: Random, artist: number, at: number): number {
    const releases = this.catalogue.artistTrackReleases[artist];
    const tracks = this.catalogue.artistTracks[artist];
    if (!releases || !tracks) return -1;
    const available = countUpTo(releases, at);
    const recent = countUpTo(releases, at - NEW_RELEASE_MS);
    if (available > recent && random.chance(0.5)) {
      return tracks[random.int(recent, available - 1)] ?? -1;
    }
    return pickArtistTrack(this.catalogue, random, artist, at);
  }

  /** An account's playlist follows by playlist id (the first, as listed), indexed once for all. */
  private followsOf(accountId: string): ReadonlyMap<string, PlaylistFollow> {
    if (!this.follows) {
      this.follows = new Map();
      for (const follow of this.people.playlistFollows) {
        let ofAccount = this.follows.get(follow.accountId);
        if (!ofAccount) this.follows.set(follow.accountId, (ofAccount = new Map()));
        if (!ofAccount.has(follow.playlistId)) ofAccount.set(follow.playlistId, follow);
      }
    }
    return this.follows.get(accountId) ?? new Map();
  }

  private listener(index: number): Listener {
    const existing = this.listeners[index];
    if (existing) return existing;
    const account = this.people.accounts[index];
    if (!account) throw new RangeError(`spotify-sandbox: no account #${index}`);
    const playlists: LibraryPlaylist[] = [];
    const follows = this.followsOf(account.id);
    this.people.playlists.forEach((playlist, playlistIndex) => {
      const follow = follows.get(playlist.id);
      const own = playlist.ownerId === account.id;
      if (!own && !follow) return;
      playlists.push({
        index: playlistIndex,
        since: own ? playlist.createdAt : (follow?.followedAt ?? playlist.createdAt),
        own,
        tracks: Int32Array.from(
          playlist.items,
          (item) => this.catalogue.trackIndex.get(item.trackId) ?? -1,
        ),
        addedAt: Float64Array.from(playlist.items, (item) => item.addedAt),
      });
    });
    const shift = account.taste.dayShiftHours;
    const listener: Listener = {
      account,
      hash: hashString(account.id),
      days: new LocalDays(account.timeZone),
      favourites: this.people.favourites[index] ?? [],
      pool: this.people.genrePools[index] ?? [],
      playlists,
      rhythm: cumulative(
        HOURLY_RHYTHM.map((_, hour) => HOURLY_RHYTHM[(((hour - shift) % 24) + 24) % 24] ?? 0),
      ),
    };
    this.listeners[index] = listener;
    return listener;
  }
}

/** Phones on the way and at night, the computer at work, a speaker some evenings. */
function deviceFor(random: Random, hour: number, weekday: number): number {
  const workday = weekday >= 1 && weekday <= 5;
  if (hour < 6) return random.chance(0.85) ? 0 : 1;
  if (workday && hour >= 9 && hour < 17) return random.chance(0.65) ? 1 : 0;
  if (hour >= 18) return random.weighted([0, 1, 2], [45, 30, 25]);
  return random.chance(0.8) ? 0 : 1;
}

function toPlan(day: number, start: number, end: number, drafts: readonly Draft[]): DayPlan {
  const count = drafts.length;
  const plan: DayPlan = {
    day,
    start,
    end,
    count,
    tracks: new Int32Array(count),
    ends: new Float64Array(count),
    played: new Int32Array(count),
    contextType: new Uint8Array(count),
    contextRef: new Int32Array(count),
    shuffle: new Uint8Array(count),
    device: new Uint8Array(count),
  };
  drafts.forEach((draft, index) => {
    plan.tracks[index] = draft.track;
    plan.ends[index] = draft.end;
    plan.played[index] = draft.played;
    plan.contextType[index] = draft.contextType;
    plan.contextRef[index] = draft.contextRef;
    plan.shuffle[index] = draft.shuffle ? 1 : 0;
    plan.device[index] = draft.device;
  });
  return plan;
}
