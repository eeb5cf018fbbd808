import type { FastifyInstance } from 'fastify';
import type { Album, Artist, Track, World } from '../world/model';
import { withCaller, type Caller, type CallerDeps } from './caller';
import { badRequest } from './errors';
import { checkMarket } from './markets';
import {
  artistObject,
  simplifiedAlbumObject,
  simplifiedPlaylistObject,
  trackObject,
} from './objects';
import { apiUrl, pagingObject, parseLimit, parseOffset, queryParam } from './paging';

const SEARCH_TYPES = [
  'album',
  'artist',
  'playlist',
  'track',
  'show',
  'episode',
  'audiobook',
] as const;
type SearchType = (typeof SEARCH_TYPES)[number];

/** Development Mode: at most 10 results per type, 5 by default; else 50 and 20. */
const DEVELOPMENT_PAGE = { default: 5, max: 10 };
const EXTENDED_PAGE = { default: 20, max: 50 };
const MAX_OFFSET = 1000;
const TWO_WEEKS_MS = 14 * 86_400_000;

/** Lower case without diacritics: "Björk" and "bjork" match. */
export function normalize(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

function words(text: string): string[] {
  return normalize(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Every term starts one of the words (Spotify matches words by their beginning). */
function allPrefixMatch(terms: readonly string[], ...haystacks: (readonly string[])[]): boolean {
  return terms.every((term) =>
    haystacks.some((haystack) => haystack.some((word) => word.startsWith(term))),
  );
}

/** A parsed `q`: free terms and Spotify's field filters. */
export interface SearchQuery {
  /** The free text, normalized, terms joined by one space. */
  text: string;
  terms: string[];
  artist?: string[];
  album?: string[];
  track?: string[];
  genre?: string;
  isrc?: string;
  upc?: string;
  year?: { from: number; to: number };
  tags: Set<'new' | 'hipster'>;
}

const FILTER = /(\w+):(?:"([^"]*)"|(\S+))/g;

/**
 * Parses `q`: `field:value` or `field:"several words"` filters (`artist`, `album`, `track`,
 * `year` as 1974 or 1970-1979, `genre`, `isrc`, `upc`, `tag:new`, `tag:hipster`) and free
 * words. Unknown fields are read as free text, as Spotify does.
 */
export function parseSearchQuery(q: string): SearchQuery {
  const query: SearchQuery = { text: '', terms: [], tags: new Set() };
  const free = q.replace(FILTER, (whole, field: string, quoted?: string, bare?: string) => {
    const value = quoted ?? bare ?? '';
    switch (field.toLowerCase()) {
      case 'artist':
      case 'album':
      case 'track':
        query[field.toLowerCase() as 'artist' | 'album' | 'track'] = words(value);
        return ' ';
      case 'genre':
        query.genre = normalize(value.trim());
        return ' ';
      case 'isrc':
        query.isrc = value.trim().toUpperCase();
        return ' ';
      case 'upc':
        query.upc = value.trim();
        return ' ';
      case 'year': {
        const match = /^(\d{4})(?:-(\d{4}))?$/.exec(value.trim());
        if (!match?.[1]) throw badRequest(`Invalid year filter: ${value}`);
        const from = Number(match[1]);
        query.year = { from, to: match[2] ? Number(match[2]) : from };
        return ' ';
      }
      case 'tag':
        if (value === 'new' || value === 'hipster') query.tags.add(value);
        return ' ';
      default:
        return whole;
    }
  });
  query.terms = words(free.replace(/"/g, ' '));
  query.text = query.terms.join(' ');
  return query;
}

interface Entry<T> {
  item: T;
  /** Normalized name and its words. */
  name: string;
  nameWords: string[];
  /** Words of the other fields free text also matches (artists, album, description). */
  otherWords: string[];
  popularity: number;
}

interface SearchIndex {
  tracks: Entry<Track>[];
  albums: Entry<Album>[];
  artists: Entry<Artist>[];
  /** The words of each artist's and each album's name, by id, for the field filters. */
  nameWords: Map<string, string[]>;
  /** The popularity at or under which an album counts as `tag:hipster` (lowest 10%). */
  hipsterPopularity: number;
}

/** Keyed by the catalogue (worlds of one seed and sizes share it), not by the world. */
const indexes = new WeakMap<readonly Track[], SearchIndex>();

function entry<T>(item: T, name: string, others: string[], popularity: number): Entry<T> {
  return {
    item,
    name: normalize(name),
    nameWords: words(name),
    otherWords: others.flatMap(words),
    popularity,
  };
}

/** The catalogue prepared for searching, once per world (playlists change, so not them). */
function searchIndex(world: World): SearchIndex {
  let index = indexes.get(world.tracks);
  if (index) return index;
  const artistName = (id: string) => world.artist(id)?.name ?? '';
  const albumPopularities = world.albums.map((album) => album.popularity).sort((a, b) => a - b);
  const albums = world.albums.map((album) =>
    entry(album, album.name, album.artistIds.map(artistName), album.popularity),
  );
  const artists = world.artists.map((artist) => entry(artist, artist.name, [], artist.popularity));
  index = {
    tracks: world.tracks.map((track) =>
      entry(
        track,
        track.name,
        [...track.artistIds.map(artistName), world.album(track.albumId)?.name ?? ''],
        track.popularity,
      ),
    ),
    albums,
    artists,
    nameWords: new Map(
      [...albums, ...artists].map(({ item, nameWords }) => [item.id, nameWords] as const),
    ),
    hipsterPopularity: albumPopularities[Math.floor(albumPopularities.length * 0.1)] ?? 0,
  };
  indexes.set(world.tracks, index);
  return index;
}

/**
 * How well an item's name answers the free text: 0 the exact name, 1 a name starting with it,
 * 2 every term in the name, 3 some terms only in its other fields; null no match.
 */
function nameRank<T>(entry: Entry<T>, query: SearchQuery): number | null {
  if (query.terms.length === 0) return 0;
  if (entry.name === query.text) return 0;
  if (entry.name.startsWith(query.text)) return 1;
  if (allPrefixMatch(query.terms, entry.nameWords)) return 2;
  if (allPrefixMatch(query.terms, entry.nameWords, entry.otherWords)) return 3;
  return null;
}

/** Names first (by how well they match), then popularity: Spotify's relevance, simply. */
function ranked<T>(
  entries: readonly Entry<T>[],
  query: SearchQuery,
  keep: (item: T, nameWords: readonly string[]) => boolean,
): T[] {
  const hits: { entry: Entry<T>; rank: number }[] = [];
  for (const candidate of entries) {
    const rank = nameRank(candidate, query);
    if (rank !== null && keep(candidate.item, candidate.nameWords)) {
      hits.push({ entry: candidate, rank });
    }
  }
  hits.sort(
    (a, b) =>
      a.rank - b.rank ||
      b.entry.popularity - a.entry.popularity ||
      (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0),
  );
  return hits.map(({ entry }) => entry.item);
}

/** The words of the named artists' or album's names, from the index. */
function wordsOf(index: SearchIndex, ids: readonly string[]): (readonly string[])[] {
  return ids.map((id) => index.nameWords.get(id) ?? []);
}

function inYears(album: Album, year: SearchQuery['year']): boolean {
  if (!year) return true;
  const released = new Date(album.releasedAt).getUTCFullYear();
  return released >= year.from && released <= year.to;
}

function hasGenre(world: World, artistIds: readonly string[], genre: string | undefined) {
  if (genre === undefined) return true;
  return artistIds.some((id) =>
    (world.artist(id)?.genres ?? []).some((name) => normalize(name).includes(genre)),
  );
}

/** The matches of one type, best first, and how to show one of them. */
interface Hits {
  count: number;
  render(from: number, to: number): object[];
}

function hits<T>(found: readonly T[], render: (item: T) => object): Hits {
  return { count: found.length, render: (from, to) => found.slice(from, to).map(render) };
}

/** Searches one type, each filter applied where Spotify applies it. */
function search(caller: Caller, query: SearchQuery, type: SearchType): Hits {
  const { world } = caller.objects;
  const now = caller.now;
  const index = searchIndex(world);
  switch (type) {
    case 'track': {
      const found = ranked(index.tracks, query, (track, name) => {
        const album = world.album(track.albumId);
        if (!album || album.releasedAt > now) return false;
        if (query.track && !allPrefixMatch(query.track, name)) return false;
        if (query.album && !allPrefixMatch(query.album, ...wordsOf(index, [album.id]))) {
          return false;
        }
        if (query.artist && !allPrefixMatch(query.artist, ...wordsOf(index, track.artistIds))) {
          return false;
        }
        if (query.isrc && track.isrc !== query.isrc) return false;
        return inYears(album, query.year) && hasGenre(world, track.artistIds, query.genre);
      });
      return hits(found, (track) => trackObject(caller.objects, track));
    }
    case 'album': {
      const found = ranked(index.albums, query, (album, name) => {
        if (album.releasedAt > now) return false;
        if (query.album && !allPrefixMatch(query.album, name)) return false;
        if (query.artist && !allPrefixMatch(query.artist, ...wordsOf(index, album.artistIds))) {
          return false;
        }
        if (query.upc && album.upc !== query.upc) return false;
        if (query.tags.has('new') && album.releasedAt < now - TWO_WEEKS_MS) return false;
        if (query.tags.has('hipster') && album.popularity > index.hipsterPopularity) return false;
        return inYears(album, query.year);
      });
      return hits(found, (album) => simplifiedAlbumObject(caller.objects, album));
    }
    case 'artist': {
      const found = ranked(index.artists, query, (artist, name) => {
        if (query.artist && !allPrefixMatch(query.artist, name)) return false;
        if (query.year) {
          const released = artist.albumIds.some((id) => {
            const album = world.album(id);
            return album !== undefined && inYears(album, query.year);
          });
          if (!released) return false;
        }
        return hasGenre(world, [artist.id], query.genre);
      });
      return hits(found, (artist) => artistObject(caller.objects, artist));
    }
    case 'playlist': {
      // Public playlists that exist by now; field filters do not apply to playlists.
      const entries = world.playlists
        .filter((playlist) => playlist.public && playlist.createdAt <= now)
        .map((playlist) =>
          entry(playlist, playlist.name, [playlist.description], playlist.followers),
        );
      const found = ranked(entries, query, () => true);
      return hits(found, (playlist) => simplifiedPlaylistObject(caller.objects, playlist));
    }
    default:
      // The world has no podcasts or audiobooks.
      return hits([], () => ({}));
  }
}

function parseTypes(value: string | undefined): SearchType[] {
  if (value === undefined || value === '') throw badRequest('Missing parameter type');
  const types: SearchType[] = [];
  for (const name of value.split(',')) {
    const type = SEARCH_TYPES.find((candidate) => candidate === name);
    if (!type) throw badRequest('Bad search type field');
    if (!types.includes(type)) types.push(type);
  }
  return types;
}

/** `GET /search`. */
export function registerSearchRoutes(app: FastifyInstance, deps: CallerDeps): void {
  const { publicUrl } = deps;

  app.get(
    '/search',
    withCaller(deps, (caller, request) => {
      const q = queryParam(request.query, 'q');
      if (q === undefined || q.trim() === '') throw badRequest('No search query');
      const types = parseTypes(queryParam(request.query, 'type'));
      checkMarket(request);
      const rule = caller.extended ? EXTENDED_PAGE : DEVELOPMENT_PAGE;
      const limit = parseLimit(queryParam(request.query, 'limit'), rule);
      const offset = parseOffset(queryParam(request.query, 'offset'), MAX_OFFSET);
      const query = parseSearchQuery(q);
      const result: Record<string, unknown> = {};
      for (const type of types) {
        const link = (offset: number, limit: number) =>
          apiUrl(publicUrl, '/search', [
            ['offset', offset],
            ['limit', limit],
            ['query', q],
            ['type', type],
          ]);
        const found = search(caller, query, type);
        const paging = pagingObject(
          link,
          { offset, limit },
          found.count,
          found.render(offset, offset + limit),
        );
        // Spotify pages search results no further than an offset of 1000.
        if (offset + limit > MAX_OFFSET) paging.next = null;
        result[`${type}s`] = paging;
      }
      return result;
    }),
  );
}
