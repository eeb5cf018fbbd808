import type { Catalogue } from './catalogue';
import type { ListeningModel } from './listening';
import type { FollowedArtist, SavedTrack } from './model';
import type { People } from './people';
import { hashString, Random } from './random';

/**
 * How libraries evolve with the listening. Each day, a person may like a track or two they played
 * in full that day (not one they already like), at a moment during that play; liking a track of an
 * artist they do not follow sometimes makes them follow the artist too. Like the plays, this is a
 * pure function of the seed, worked out day by day as far as anyone has asked, and kept.
 */
export interface LibraryEvent {
  /** Catalogue index of the track (likes) or artist (follows). */
  item: number;
  at: number;
  /** The play it came from: if the real player cut or cancelled that play, the event is void. */
  playStart: number;
  playEnd: number;
}

const LIKE_SALT = 0x6c696b65;
const LIKE_DAY_CHANCE = 0.45;
const FOLLOW_ON_LIKE_CHANCE = 0.2;

export class LibraryTimeline {
  readonly likes: LibraryEvent[] = [];
  readonly follows: LibraryEvent[] = [];
  private nextDay: number | undefined;
  private readonly liked = new Set<number>();
  /** When each artist was first followed (initial follows and generated ones). */
  private readonly followedAt = new Map<number, number>();
  private readonly hash: number;

  constructor(
    private readonly seed: number,
    private readonly account: number,
    private readonly catalogue: Catalogue,
    private readonly people: People,
    private readonly listening: ListeningModel,
  ) {
    const accountData = people.accounts[account];
    this.hash = hashString(accountData?.id ?? '');
    for (const follow of people.initialFollows[account] ?? []) {
      const artist = catalogue.artistIndex.get(follow.artistId);
      if (artist !== undefined) this.followedAt.set(artist, follow.followedAt);
    }
  }

  /** Works the timeline out up to and including `day`. */
  extendTo(day: number): void {
    const days = this.listening.days(this.account);
    const createdAt = this.people.accounts[this.account]?.createdAt ?? 0;
    let next = this.nextDay ?? days.dayOf(createdAt);
    for (; next <= day; next++) this.planDay(next);
    this.nextDay = next;
  }

  private planDay(day: number): void {
    const random = Random.derive(this.seed, LIKE_SALT, this.hash, day);
    if (!random.chance(LIKE_DAY_CHANCE)) return;
    const plan = this.listening.generate(this.account, day);
    const candidates: number[] = [];
    for (let index = 0; index < plan.count; index++) {
      const track = plan.tracks[index] ?? 0;
      const full = plan.played[index] === this.catalogue.tracks[track]?.durationMs;
      if (full && !this.liked.has(track)) candidates.push(index);
    }
    const wanted = random.chance(0.25) ? 2 : 1;
    for (const index of random.sample(candidates, wanted)) {
      const track = plan.tracks[index] ?? 0;
      if (this.liked.has(track)) continue;
      const playEnd = plan.ends[index] ?? 0;
      const playStart = playEnd - (plan.played[index] ?? 0);
      const at = Math.round(playStart + random.next() * (playEnd - playStart));
      this.liked.add(track);
      this.likes.push({ item: track, at, playStart, playEnd });
      const artist = this.catalogue.trackArtist[track] ?? 0;
      const followed = this.followedAt.get(artist);
      if ((followed === undefined || followed > at) && random.chance(FOLLOW_ON_LIKE_CHANCE)) {
        const followAt = at + random.int(5_000, 600_000);
        this.followedAt.set(artist, followAt);
        this.follows.push({ item: artist, at: followAt, playStart, playEnd });
      }
    }
  }
}

/** A change made through the Web API. */
export interface LibraryChange {
  action: 'add' | 'remove';
  id: string;
  at: number;
}

/**
 * The library at a time: generated events and API changes in time order. Adding what is there
 * keeps its original date; removing what is not there does nothing.
 */
export function composeLibrary(
  generated: readonly { id: string; at: number }[],
  changes: readonly LibraryChange[],
  atMs: number,
): Map<string, number> {
  const events = [
    ...generated
      .filter((event) => event.at <= atMs)
      .map((event) => ({ ...event, action: 'add' as const, order: 0 })),
    ...changes
      .filter((change) => change.at <= atMs)
      .map((change, order) => ({ ...change, order: order + 1 })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  const library = new Map<string, number>();
  for (const event of events) {
    if (event.action === 'remove') library.delete(event.id);
    else if (!library.has(event.id)) library.set(event.id, event.at);
  }
  return library;
}

export function toSavedTracks(library: Map<string, number>): SavedTrack[] {
  return [...library]
    .map(([trackId, addedAt]) => ({ trackId, addedAt }))
    .sort((a, b) => b.addedAt - a.addedAt || a.trackId.localeCompare(b.trackId));
}

export function toFollowedArtists(library: Map<string, number>): FollowedArtist[] {
  return [...library]
    .map(([artistId, followedAt]) => ({ artistId, followedAt }))
    .sort((a, b) => b.followedAt - a.followedAt || a.artistId.localeCompare(b.artistId));
}
