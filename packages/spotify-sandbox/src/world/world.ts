import { RealActivity } from './activity';
import { generateCatalogue, type Catalogue } from './catalogue';
import { DEMO_PEOPLE } from './demo-accounts';
import {
  composeLibrary,
  LibraryTimeline,
  toFollowedArtists,
  toSavedTracks,
  type LibraryChange,
  type LibraryEvent,
} from './library';
import {
  CONTEXT_ALBUM,
  CONTEXT_ARTIST,
  CONTEXT_PLAYLIST,
  DEVICES,
  ListeningModel,
  type DayPlan,
} from './listening';
import {
  type Account,
  type Album,
  type Artist,
  type FollowedArtist,
  type NowPlaying,
  type Play,
  type PlayContext,
  type Playlist,
  type PlaylistItem,
  type SavedTrack,
  type Track,
  type World,
  type WorldSizes,
  localFileUri,
} from './model';
import { generatePeople, type People } from './people';

/** The seed of the default world (the one `npm start` and the tests show). */
export const DEFAULT_WORLD_SEED = 20_260_101;

export const DEFAULT_WORLD_SIZES: Readonly<WorldSizes> = {
  artists: 1500,
  albums: 4000,
  tracks: 40_000,
  historyYears: 5,
  dailyPlaysScale: 1,
  accounts: DEMO_PEOPLE.length,
};

export interface WorldOptions {
  seed?: number;
  sizes?: Partial<WorldSizes>;
}

/** Recently played counts plays of at least this long (as Spotify does). */
export const RECENTLY_PLAYED_MIN_MS = 30_000;

/**
 * The generated, immutable part of a world, and the caches of what is derived from it (day plans,
 * library timelines). It is a pure function of seed and sizes, so worlds with the same ones share
 * it: building a second sandbox with the same world costs nothing.
 */
interface WorldBase {
  seed: number;
  sizes: WorldSizes;
  catalogue: Catalogue;
  people: People;
  listening: ListeningModel;
  timelines: (LibraryTimeline | undefined)[];
  topTracks: Map<string, readonly Track[]>;
  genres: string[];
  playlistIndex: Map<string, number>;
  accountIndex: Map<string, number>;
}

const SHARED_BASES = 2;
const bases = new Map<string, WorldBase>();

/** Builds (or reuses) the generated world for a seed and sizes, with fresh overlays. */
export function createWorld(options: WorldOptions = {}): World {
  const seed = options.seed ?? DEFAULT_WORLD_SEED;
  if (!Number.isSafeInteger(seed))
    throw new RangeError('spotify-sandbox: the seed must be an integer');
  const sizes = { ...DEFAULT_WORLD_SIZES, ...options.sizes };
  for (const key of ['artists', 'albums', 'tracks'] as const) {
    if (!Number.isInteger(sizes[key]) || sizes[key] <= 0) {
      throw new RangeError(`spotify-sandbox: world size ${key} must be a positive whole number`);
    }
  }
  for (const key of ['historyYears', 'dailyPlaysScale'] as const) {
    if (!Number.isFinite(sizes[key]) || sizes[key] <= 0) {
      throw new RangeError(`spotify-sandbox: world size ${key} must be a positive number`);
    }
  }
  if (!Number.isInteger(sizes.accounts) || sizes.accounts < DEMO_PEOPLE.length) {
    throw new RangeError(
      `spotify-sandbox: world size accounts must be a whole number of at least ${DEMO_PEOPLE.length} (the demo people)`,
    );
  }
  const key = JSON.stringify([seed, sizes]);
  let base = bases.get(key);
  if (!base) {
    base = buildBase(seed, sizes);
    bases.set(key, base);
    if (bases.size > SHARED_BASES) bases.delete(bases.keys().next().value as string);
  }
  return new GeneratedWorld(base);
}

function buildBase(seed: number, sizes: WorldSizes): WorldBase {
  const catalogue = generateCatalogue(seed, sizes);
  const people = generatePeople(seed, catalogue, sizes);
  return {
    seed,
    sizes,
    catalogue,
    people,
    listening: new ListeningModel(seed, catalogue, people, sizes),
    timelines: people.accounts.map(() => undefined),
    topTracks: new Map(),
    genres: [...catalogue.genreArtists.keys()].sort(),
    playlistIndex: new Map(people.playlists.map((playlist, index) => [playlist.id, index])),
    accountIndex: new Map(people.accounts.map((account, index) => [account.id, index])),
  };
}

class GeneratedWorld implements World {
  readonly seed: number;
  readonly sizes: Readonly<WorldSizes>;
  readonly artists: readonly Artist[];
  readonly albums: readonly Album[];
  readonly tracks: readonly Track[];
  readonly genres: readonly string[];
  readonly accounts: readonly Account[];
  readonly playlists: readonly Playlist[];
  private readonly activity = new Map<number, RealActivity>();
  private readonly savedChanges = new Map<number, LibraryChange[]>();
  private readonly followChanges = new Map<number, LibraryChange[]>();

  constructor(private readonly base: WorldBase) {
    this.seed = base.seed;
    this.sizes = base.sizes;
    this.artists = base.catalogue.artists;
    this.albums = base.catalogue.albums;
    this.tracks = base.catalogue.tracks;
    this.genres = base.genres;
    this.accounts = base.people.accounts;
    this.playlists = base.people.playlists;
  }

  artist(id: string): Artist | undefined {
    const index = this.base.catalogue.artistIndex.get(id);
    return index === undefined ? undefined : this.artists[index];
  }

  album(id: string): Album | undefined {
    const index = this.base.catalogue.albumIndex.get(id);
    return index === undefined ? undefined : this.albums[index];
  }

  track(id: string): Track | undefined {
    const index = this.base.catalogue.trackIndex.get(id);
    return index === undefined ? undefined : this.tracks[index];
  }

  tracksByIsrc(isrc: string): readonly Track[] {
    return (this.base.catalogue.isrcIndex.get(isrc) ?? []).map(
      (index) => this.tracks[index] as Track,
    );
  }

  topTracks(artistId: string): readonly Track[] {
    const cached = this.base.topTracks.get(artistId);
    if (cached) return cached;
    const index = this.base.catalogue.artistIndex.get(artistId);
    if (index === undefined) return [];
    const recordings = new Set<string>();
    const top: Track[] = [];
    const candidates = Array.from(
      this.base.catalogue.artistTracks[index] ?? [],
      (track) => this.tracks[track] as Track,
    );
    for (const track of candidates.sort(
      (a, b) => b.popularity - a.popularity || a.id.localeCompare(b.id),
    )) {
      if (recordings.has(track.isrc)) continue;
      recordings.add(track.isrc);
      top.push(track);
      if (top.length === 10) break;
    }
    this.base.topTracks.set(artistId, top);
    return top;
  }

  account(id: string): Account | undefined {
    const index = this.base.accountIndex.get(id);
    return index === undefined ? undefined : this.accounts[index];
  }

  playlist(id: string): Playlist | undefined {
    const index = this.base.playlistIndex.get(id);
    return index === undefined ? undefined : this.playlists[index];
  }

  playlistsOf(accountId: string, atMs: number): readonly Playlist[] {
    this.indexOf(accountId);
    const entries: { playlist: Playlist; since: number }[] = [];
    for (const playlist of this.playlists) {
      if (playlist.ownerId === accountId && playlist.createdAt <= atMs) {
        entries.push({ playlist, since: playlist.createdAt });
      }
    }
    for (const follow of this.base.people.playlistFollows) {
      const playlist = this.playlist(follow.playlistId);
      if (follow.accountId === accountId && follow.followedAt <= atMs && playlist) {
        entries.push({ playlist, since: follow.followedAt });
      }
    }
    return entries.sort((a, b) => b.since - a.since).map(({ playlist }) => playlist);
  }

  playlistItems(playlistId: string, atMs: number): readonly PlaylistItem[] {
    const items = this.playlist(playlistId)?.items ?? [];
    let count = 0;
    while (count < items.length && (items[count]?.addedAt ?? Infinity) <= atMs) count++;
    return items.slice(0, count);
  }

  savedTracks(accountId: string, atMs: number): readonly SavedTrack[] {
    const account = this.indexOf(accountId);
    const generated = this.liveEvents(account, this.timeline(account, atMs).likes).map((event) => ({
      id: (this.tracks[event.item] as Track).id,
      at: event.at,
    }));
    return toSavedTracks(composeLibrary(generated, this.savedChanges.get(account) ?? [], atMs));
  }

  saveTracks(accountId: string, trackIds: readonly string[], atMs: number): void {
    this.change(this.savedChanges, accountId, trackIds, 'add', atMs, (id) => this.track(id));
  }

  removeSavedTracks(accountId: string, trackIds: readonly string[], atMs: number): void {
    this.change(this.savedChanges, accountId, trackIds, 'remove', atMs, (id) => this.track(id));
  }

  followedArtists(accountId: string, atMs: number): readonly FollowedArtist[] {
    const account = this.indexOf(accountId);
    const initial = (this.base.people.initialFollows[account] ?? []).map((follow) => ({
      id: follow.artistId,
      at: follow.followedAt,
    }));
    const later = this.liveEvents(account, this.timeline(account, atMs).follows).map((event) => ({
      id: (this.artists[event.item] as Artist).id,
      at: event.at,
    }));
    const changes = this.followChanges.get(account) ?? [];
    return toFollowedArtists(composeLibrary([...initial, ...later], changes, atMs));
  }

  follow(accountId: string, artistIds: readonly string[], atMs: number): void {
    this.change(this.followChanges, accountId, artistIds, 'add', atMs, (id) => this.artist(id));
  }

  unfollow(accountId: string, artistIds: readonly string[], atMs: number): void {
    this.change(this.followChanges, accountId, artistIds, 'remove', atMs, (id) => this.artist(id));
  }

  playsBetween(accountId: string, fromMs: number, toMs: number): Play[] {
    const account = this.indexOf(accountId);
    if (!(toMs > fromMs)) return [];
    const days = this.base.listening.days(account);
    const plays: Play[] = [];
    const last = days.dayOf(toMs);
    for (let day = days.dayOf(Math.max(fromMs, this.historyStart(account))); day <= last; day++) {
      for (const play of this.playsOfDay(account, day, true)) {
        if (play.playedAt > fromMs && play.playedAt <= toMs) plays.push(play);
      }
    }
    return plays;
  }

  recentPlays(accountId: string, beforeMs: number, limit: number): Play[] {
    const account = this.indexOf(accountId);
    const start = this.historyStart(account);
    const days = this.base.listening.days(account);
    const recent: Play[] = [];
    if (beforeMs <= start) return recent;
    const first = days.dayOf(start);
    for (let day = days.dayOf(beforeMs); day >= first && recent.length < limit; day--) {
      const plays = this.playsOfDay(account, day, true);
      for (let index = plays.length - 1; index >= 0 && recent.length < limit; index--) {
        const play = plays[index] as Play;
        if (play.playedAt < beforeMs && play.msPlayed >= RECENTLY_PLAYED_MIN_MS) recent.push(play);
      }
    }
    return recent;
  }

  nowPlaying(accountId: string, atMs: number): NowPlaying | null {
    const account = this.indexOf(accountId);
    const activity = this.activity.get(account);
    if (activity?.blocks(atMs) || atMs < (this.accounts[account] as Account).createdAt) return null;
    const listening = this.base.listening;
    const plan = listening.plan(account, listening.days(account).dayOf(atMs));
    let low = 0;
    let high = plan.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((plan.ends[middle] ?? 0) <= atMs) low = middle + 1;
      else high = middle;
    }
    if (low >= plan.count) return null;
    const end = plan.ends[low] ?? 0;
    const startedAt = end - (plan.played[low] ?? 0);
    if (startedAt > atMs) return null;
    const clipped = activity ? activity.clip(startedAt, end) : end;
    if (clipped <= atMs) return null;
    const play = this.toPlay(account, plan, low, clipped);
    return {
      play,
      track: this.tracks[plan.tracks[low] ?? 0] as Track,
      startedAt,
      progressMs: atMs - startedAt,
    };
  }

  *history(accountId: string, untilMs: number): Iterable<Play> {
    const account = this.indexOf(accountId);
    const days = this.base.listening.days(account);
    const last = days.dayOf(untilMs);
    for (let day = days.dayOf(this.historyStart(account)); day <= last; day++) {
      for (const play of this.playsOfDay(account, day, false)) {
        if (play.playedAt <= untilMs) yield play;
      }
    }
  }

  recordPlay(play: Play): void {
    const account = this.indexOf(play.accountId);
    if (play.localFile) {
      if (play.trackId !== localFileUri(play.localFile)) {
        throw new RangeError('spotify-sandbox: a local file play has its spotify:local: URI');
      }
    } else if (!this.track(play.trackId)) {
      throw new RangeError(`spotify-sandbox: no track "${play.trackId}" in this world`);
    }
    if (!Number.isFinite(play.playedAt) || !(play.msPlayed >= 0)) {
      throw new RangeError('spotify-sandbox: a play needs a finite playedAt and msPlayed >= 0');
    }
    this.activityOf(account).record({
      ...play,
      context: play.context && { ...play.context },
      ...(play.localFile && { localFile: { ...play.localFile } }),
    });
  }

  beginRealSession(accountId: string, atMs: number): void {
    this.activityOf(this.indexOf(accountId)).begin(atMs);
  }

  endRealSession(accountId: string, atMs: number): void {
    this.activity.get(this.indexOf(accountId))?.end(atMs);
  }

  private indexOf(accountId: string): number {
    const index = this.base.accountIndex.get(accountId);
    if (index === undefined) throw new RangeError(`spotify-sandbox: no account "${accountId}"`);
    return index;
  }

  private activityOf(account: number): RealActivity {
    let activity = this.activity.get(account);
    if (!activity) {
      activity = new RealActivity();
      this.activity.set(account, activity);
    }
    return activity;
  }

  /** The account's creation, or its first real play if the clock was set before that. */
  private historyStart(account: number): number {
    const createdAt = (this.accounts[account] as Account).createdAt;
    const firstReal = this.activity.get(account)?.plays[0];
    return firstReal ? Math.min(createdAt, firstReal.playedAt - 1) : createdAt;
  }

  private timeline(account: number, atMs: number): LibraryTimeline {
    const { base } = this;
    let timeline = base.timelines[account];
    if (!timeline) {
      timeline = new LibraryTimeline(
        base.seed,
        account,
        base.catalogue,
        base.people,
        base.listening,
      );
      base.timelines[account] = timeline;
    }
    timeline.extendTo(base.listening.days(account).dayOf(atMs));
    return timeline;
  }

  /** Generated events whose play the real player did not cut or cancel. */
  private liveEvents(account: number, events: readonly LibraryEvent[]): LibraryEvent[] {
    const activity = this.activity.get(account);
    if (!activity) return events.slice();
    return events.filter(
      (event) => activity.clip(event.playStart, event.playEnd) === event.playEnd,
    );
  }

  private change(
    store: Map<number, LibraryChange[]>,
    accountId: string,
    ids: readonly string[],
    action: LibraryChange['action'],
    atMs: number,
    exists: (id: string) => unknown,
  ): void {
    const account = this.indexOf(accountId);
    const unknown = ids.find((id) => !exists(id));
    if (unknown !== undefined)
      throw new RangeError(`spotify-sandbox: no "${unknown}" in this world`);
    let changes = store.get(account);
    if (!changes) {
      changes = [];
      store.set(account, changes);
    }
    for (const id of ids) changes.push({ action, id, at: atMs });
  }

  /** A day's plays after the real player's rule, with its recorded plays, by `playedAt`. */
  private playsOfDay(account: number, day: number, cache: boolean): Play[] {
    const listening = this.base.listening;
    const plan = cache ? listening.plan(account, day) : listening.generate(account, day);
    const activity = this.activity.get(account);
    const plays: Play[] = [];
    for (let index = 0; index < plan.count; index++) {
      const end = plan.ends[index] ?? 0;
      if (!activity) {
        plays.push(this.toPlay(account, plan, index, end));
        continue;
      }
      const start = end - (plan.played[index] ?? 0);
      const clipped = activity.clip(start, end);
      if (clipped > start) plays.push(this.toPlay(account, plan, index, clipped));
    }
    const real = activity?.playsBetween(plan.start, plan.end) ?? [];
    if (real.length === 0) return plays;
    return [...plays, ...real.map((play) => ({ ...play }))].sort((a, b) => a.playedAt - b.playedAt);
  }

  private toPlay(account: number, plan: DayPlan, index: number, end: number): Play {
    const planned = plan.ends[index] ?? 0;
    return {
      accountId: (this.accounts[account] as Account).id,
      trackId: (this.tracks[plan.tracks[index] ?? 0] as Track).id,
      playedAt: end,
      msPlayed: (plan.played[index] ?? 0) - (planned - end),
      context: this.context(plan.contextType[index] ?? 0, plan.contextRef[index] ?? 0),
      shuffle: plan.shuffle[index] === 1,
      device: DEVICES[plan.device[index] ?? 0] ?? 'smartphone',
    };
  }

  private context(type: number, ref: number): PlayContext | null {
    switch (type) {
      case CONTEXT_ALBUM:
        return { type: 'album', uri: `spotify:album:${this.albums[ref]?.id ?? ''}` };
      case CONTEXT_PLAYLIST:
        return { type: 'playlist', uri: `spotify:playlist:${this.playlists[ref]?.id ?? ''}` };
      case CONTEXT_ARTIST:
        return { type: 'artist', uri: `spotify:artist:${this.artists[ref]?.id ?? ''}` };
      default:
        return null;
    }
  }
}
