import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withCaller, type Caller, type CallerDeps } from './caller';
import { badRequest } from './errors';
import { checkMarket } from './markets';
import { isBase62Id, parseIdList, parseUriList, type SpotifyUri } from './ids';
import { artistObject, isoSeconds, trackObjectById } from './objects';
import { apiUrl, pageOf, parseLimit, parseOffset, queryParam } from './paging';

const PAGE = { default: 20, max: 50 };
const MAX_IDS = 50;
const MAX_URIS = 40;

/**
 * The ids of a save or follow: the `ids` query parameter, or else a JSON body `{"ids": [...]}`
 * (Spotify ignores the body when the query has them).
 */
function mutationIds(request: FastifyRequest, kind: 'base62' | 'user' = 'base62'): string[] {
  const fromQuery = queryParam(request.query, 'ids');
  if (fromQuery !== undefined) return parseIdList(fromQuery, MAX_IDS, kind);
  const body: unknown = request.body;
  const ids: unknown =
    typeof body === 'object' && body !== null ? (body as { ids?: unknown }).ids : undefined;
  if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string')) {
    return parseIdList(undefined, MAX_IDS, kind);
  }
  return parseIdList(ids.join(','), MAX_IDS, kind);
}

/** `type` of the follow endpoints: `artist`, or `user` where the endpoint allows it. */
function followType(request: FastifyRequest, allowUser: boolean): 'artist' | 'user' {
  const type = queryParam(request.query, 'type');
  if (type === undefined || type === '') throw badRequest('Missing parameter type');
  if (type === 'artist' || (allowUser && type === 'user')) return type;
  throw badRequest(`Invalid type: ${type}`);
}

/**
 * The world keeps saved tracks and followed artists; follows of users, saved albums, shows,
 * episodes, audiobooks and followed playlists are not part of it.
 */
function unsupportedBySandbox(what: string) {
  return badRequest(`The sandbox's library holds tracks and artists only, not ${what}`);
}

/** The scopes `/me/library` needs per kind of item, to read and to change. */
const LIBRARY_SCOPES = {
  track: { read: 'user-library-read', modify: 'user-library-modify' },
  artist: { read: 'user-follow-read', modify: 'user-follow-modify' },
} as const;

function libraryItems(caller: Caller, uris: SpotifyUri[], access: 'read' | 'modify') {
  const items = uris.map(({ type, id }) => {
    if (type !== 'track' && type !== 'artist') throw unsupportedBySandbox(`${type}s`);
    return { type, id };
  });
  for (const { type } of items) caller.requireScope(LIBRARY_SCOPES[type][access]);
  return items;
}

/** Saved tracks, the generic library and followed artists of the current user. */
export function registerLibraryRoutes(app: FastifyInstance, deps: CallerDeps): void {
  const { world, publicUrl } = deps;

  const knownTracks = (ids: readonly string[]) => ids.filter((id) => world.track(id));
  const knownArtists = (ids: readonly string[]) => ids.filter((id) => world.artist(id));
  const savedTrackIds = (caller: Caller) =>
    new Set(world.savedTracks(caller.account.id, caller.now).map(({ trackId }) => trackId));
  const followedArtistIds = (caller: Caller) =>
    new Set(world.followedArtists(caller.account.id, caller.now).map(({ artistId }) => artistId));

  app.get(
    '/me/tracks',
    withCaller(deps, (caller, request) => {
      caller.requireScope('user-library-read');
      const market = checkMarket(request);
      const limit = parseLimit(queryParam(request.query, 'limit'), PAGE);
      const offset = parseOffset(queryParam(request.query, 'offset'));
      const link = (offset: number, limit: number) =>
        apiUrl(publicUrl, '/me/tracks', [
          ['offset', offset],
          ['limit', limit],
          ['market', market],
        ]);
      const saved = world.savedTracks(caller.account.id, caller.now);
      return pageOf(link, { offset, limit }, saved, ({ trackId, addedAt }) => ({
        added_at: isoSeconds(addedAt),
        track: trackObjectById(caller.objects, trackId),
      }));
    }),
  );

  // Saving and removing by id, and the check, are Extended Quota Mode only since February 2026.
  // Ids of no track are ignored, as Spotify ignores them.
  app.put(
    '/me/tracks',
    withCaller(deps, (caller, request, reply) => {
      caller.requireExtendedMode();
      caller.requireScope('user-library-modify');
      world.saveTracks(caller.account.id, knownTracks(mutationIds(request)), caller.now);
      return reply.code(200).send();
    }),
  );

  app.delete(
    '/me/tracks',
    withCaller(deps, (caller, request, reply) => {
      caller.requireExtendedMode();
      caller.requireScope('user-library-modify');
      world.removeSavedTracks(caller.account.id, knownTracks(mutationIds(request)), caller.now);
      return reply.code(200).send();
    }),
  );

  app.get(
    '/me/tracks/contains',
    withCaller(deps, (caller, request) => {
      caller.requireExtendedMode();
      caller.requireScope('user-library-read');
      const ids = parseIdList(queryParam(request.query, 'ids'), MAX_IDS);
      const saved = savedTrackIds(caller);
      return ids.map((id) => saved.has(id));
    }),
  );

  // The generic library of February 2026, for apps in both modes.
  const changeLibrary = (change: 'save' | 'remove') =>
    withCaller(deps, (caller, request, reply) => {
      const uris = parseUriList(queryParam(request.query, 'uris'), MAX_URIS);
      const items = libraryItems(caller, uris, 'modify');
      const ids = (type: 'track' | 'artist') =>
        items.filter((item) => item.type === type).map(({ id }) => id);
      const tracks = knownTracks(ids('track'));
      const artists = knownArtists(ids('artist'));
      const account = caller.account.id;
      if (change === 'save') {
        if (tracks.length) world.saveTracks(account, tracks, caller.now);
        if (artists.length) world.follow(account, artists, caller.now);
      } else {
        if (tracks.length) world.removeSavedTracks(account, tracks, caller.now);
        if (artists.length) world.unfollow(account, artists, caller.now);
      }
      return reply.code(200).send();
    });
  app.put('/me/library', changeLibrary('save'));
  app.delete('/me/library', changeLibrary('remove'));

  app.get(
    '/me/library/contains',
    withCaller(deps, (caller, request) => {
      const uris = parseUriList(queryParam(request.query, 'uris'), MAX_URIS);
      const items = libraryItems(caller, uris, 'read');
      const saved = items.some(({ type }) => type === 'track') ? savedTrackIds(caller) : new Set();
      const followed = items.some(({ type }) => type === 'artist')
        ? followedArtistIds(caller)
        : new Set();
      return items.map(({ type, id }) => (type === 'track' ? saved : followed).has(id));
    }),
  );

  app.get(
    '/me/following',
    withCaller(deps, (caller, request) => {
      followType(request, false);
      caller.requireScope('user-follow-read');
      const limit = parseLimit(queryParam(request.query, 'limit'), PAGE);
      const after = queryParam(request.query, 'after') || undefined;
      if (after !== undefined && !isBase62Id(after)) throw badRequest('Invalid base62 id');
      const followed = world.followedArtists(caller.account.id, caller.now);
      // Cursor paging: the page starts after the artist named by `after` (none if it is gone).
      const start =
        after === undefined ? 0 : followed.findIndex(({ artistId }) => artistId === after) + 1;
      const page = start === 0 && after !== undefined ? [] : followed.slice(start, start + limit);
      const last = page.at(-1)?.artistId;
      const more = last !== undefined && start + limit < followed.length;
      const link = (cursor: string | undefined) =>
        apiUrl(publicUrl, '/me/following', [
          ['type', 'artist'],
          ['after', cursor],
          ['limit', limit],
        ]);
      return {
        artists: {
          href: link(after),
          items: page.map(({ artistId }) => {
            const artist = world.artist(artistId);
            if (!artist) throw new Error(`spotify-sandbox: a follow of unknown artist ${artistId}`);
            return artistObject(caller.objects, artist);
          }),
          limit,
          next: more ? link(last) : null,
          cursors: { after: more ? last : null },
          total: followed.length,
        },
      };
    }),
  );

  // Following and unfollowing by id, and the check, are Extended Quota Mode only since February
  // 2026; `/me/library` with `spotify:artist:` URIs replaces them.
  const changeFollows = (change: 'follow' | 'unfollow') =>
    withCaller(deps, (caller, request, reply) => {
      caller.requireExtendedMode();
      const type = followType(request, true);
      caller.requireScope('user-follow-modify');
      if (type === 'user') throw unsupportedBySandbox('follows of users');
      world[change](caller.account.id, knownArtists(mutationIds(request)), caller.now);
      return reply.code(204).send();
    });
  app.put('/me/following', changeFollows('follow'));
  app.delete('/me/following', changeFollows('unfollow'));

  app.get(
    '/me/following/contains',
    withCaller(deps, (caller, request) => {
      caller.requireExtendedMode();
      const type = followType(request, true);
      caller.requireScope('user-follow-read');
      const ids = parseIdList(
        queryParam(request.query, 'ids'),
        MAX_IDS,
        type === 'user' ? 'user' : 'base62',
      );
      // The sandbox's people follow artists only, so no user is followed.
      const followed = type === 'artist' ? followedArtistIds(caller) : new Set<string>();
      return ids.map((id) => followed.has(id));
    }),
  );
}
