import type { FastifyInstance } from 'fastify';
import type { Play } from '../world/model';
import { RECENTLY_PLAYED_MIN_MS } from '../world/world';
import { withCaller, type Caller, type CallerDeps } from './caller';
import { badRequest } from './errors';
import { artistObject, playHistoryObject, trackObject } from './objects';
import { apiUrl, pageOf, parseLimit, parseOffset, parseTimestamp, queryParam } from './paging';

const PAGE = { default: 20, max: 50 };
/** Recently-played reaches back no further than the last 50 plays. */
const RECENTLY_PLAYED_DEPTH = 50;
const DAY_MS = 86_400_000;

/** The periods of `/me/top/*`: about 4 weeks, 6 months and a year. */
const TIME_RANGES = {
  short_term: 28 * DAY_MS,
  medium_term: 182 * DAY_MS,
  long_term: 365 * DAY_MS,
} as const;
type TimeRange = keyof typeof TIME_RANGES;

function parseTimeRange(value: string | undefined): TimeRange {
  if (value === undefined || value === '') return 'medium_term';
  if (value in TIME_RANGES) return value as TimeRange;
  throw badRequest('Invalid time range');
}

/** How much each id (track or artist) was streamed, and when last. */
type Weights = Map<string, { weight: number; lastMs: number }>;

/** Ids ranked by weight, ties to the most recently heard. */
function rank(weights: Weights): string[] {
  return [...weights.entries()]
    .sort(([a, x], [b, y]) => y.weight - x.weight || y.lastMs - x.lastMs || (a < b ? -1 : 1))
    .map(([id]) => id);
}

function credit(weights: Weights, id: string, weight: number, atMs: number): void {
  const found = weights.get(id);
  if (found) {
    found.weight += weight;
    found.lastMs = Math.max(found.lastMs, atMs);
  } else {
    weights.set(id, { weight, lastMs: atMs });
  }
}

/**
 * The streams of the time range before now: plays long enough to count, as in recently-played;
 * local files are no catalogue items, so they never rank.
 */
function streams(caller: Caller, range: TimeRange): Play[] {
  const { world } = caller.objects;
  return world
    .playsBetween(caller.account.id, caller.now - TIME_RANGES[range], caller.now)
    .filter((play) => play.msPlayed >= RECENTLY_PLAYED_MIN_MS && !play.localFile);
}

/** A track's main artist counts fully, featured artists half. */
const FEATURED_WEIGHT = 0.5;

/** `/me/player/recently-played` and `/me/top/{artists,tracks}`, computed from the plays. */
export function registerPersonalRoutes(app: FastifyInstance, deps: CallerDeps): void {
  const { world, publicUrl } = deps;

  app.get(
    '/me/player/recently-played',
    withCaller(deps, (caller, request) => {
      caller.requireScope('user-read-recently-played');
      const limit = parseLimit(queryParam(request.query, 'limit'), PAGE);
      const afterParam = queryParam(request.query, 'after') || undefined;
      const beforeParam = queryParam(request.query, 'before') || undefined;
      if (afterParam !== undefined && beforeParam !== undefined) {
        throw badRequest("Only one of 'after' and 'before' can be specified");
      }
      const after = afterParam === undefined ? undefined : parseTimestamp(afterParam, 'after');
      const before = beforeParam === undefined ? undefined : parseTimestamp(beforeParam, 'before');

      // The last 50 streams up to now, newest first: all recently-played ever shows.
      const recent = world.recentPlays(caller.account.id, caller.now + 1, RECENTLY_PLAYED_DEPTH);
      let page: Play[];
      let more: boolean;
      if (after !== undefined) {
        // Paging forward: the `limit` plays right after the cursor, still newest first. Spotify
        // does not look ahead here: a full page always links a next one, which may be empty.
        const newer = recent.filter((play) => play.playedAt > after);
        page = newer.slice(Math.max(0, newer.length - limit));
        more = newer.length >= limit;
      } else {
        const older = recent.filter((play) => before === undefined || play.playedAt < before);
        page = older.slice(0, limit);
        more = older.length > limit;
      }
      const newest = page[0];
      const oldest = page.at(-1);
      const link = (params: [string, number | undefined][]) =>
        apiUrl(publicUrl, '/me/player/recently-played', [...params, ['limit', limit]]);
      // `next` pages on in the direction asked: older plays, or newer ones after `after`.
      let next: string | null = null;
      if (more && newest && oldest) {
        next =
          after !== undefined
            ? link([['after', newest.playedAt]])
            : link([['before', oldest.playedAt]]);
      }
      const cursors =
        newest && oldest
          ? { after: String(newest.playedAt), before: String(oldest.playedAt) }
          : null;
      return {
        items: page.map((play) => playHistoryObject(caller.objects, play)),
        next,
        cursors,
        limit,
        href: link([
          ['after', after],
          ['before', before],
        ]),
      };
    }),
  );

  /** `/me/top/{type}`: the ids `creditPlay` weighs for the time range, ranked and paged. */
  const topItems = (
    type: 'artists' | 'tracks',
    creditPlay: (weights: Weights, play: Play) => void,
    toObject: (caller: Caller, id: string) => unknown,
  ) =>
    withCaller(deps, (caller, request) => {
      caller.requireScope('user-top-read');
      const rangeParam = queryParam(request.query, 'time_range') || undefined;
      const range = parseTimeRange(rangeParam);
      const limit = parseLimit(queryParam(request.query, 'limit'), PAGE);
      const offset = parseOffset(queryParam(request.query, 'offset'));
      const weights: Weights = new Map();
      for (const play of streams(caller, range)) creditPlay(weights, play);
      const link = (pageOffset: number, pageLimit: number) =>
        apiUrl(publicUrl, `/me/top/${type}`, [
          ['time_range', rangeParam],
          ['offset', pageOffset],
          ['limit', pageLimit],
        ]);
      return pageOf(link, { offset, limit }, rank(weights), (id) => toObject(caller, id));
    });

  app.get(
    '/me/top/tracks',
    topItems(
      'tracks',
      (weights, play) => credit(weights, play.trackId, 1, play.playedAt),
      (caller, id) => {
        const track = world.track(id);
        if (!track) throw new Error(`spotify-sandbox: a play of unknown track ${id}`);
        return trackObject(caller.objects, track);
      },
    ),
  );

  app.get(
    '/me/top/artists',
    topItems(
      'artists',
      (weights, play) => {
        const artistIds = world.track(play.trackId)?.artistIds ?? [];
        artistIds.forEach((id, position) =>
          credit(weights, id, position === 0 ? 1 : FEATURED_WEIGHT, play.playedAt),
        );
      },
      (caller, id) => {
        const artist = world.artist(id);
        if (!artist) throw new Error(`spotify-sandbox: a play of unknown artist ${id}`);
        return artistObject(caller.objects, artist);
      },
    ),
  );
}
