import type { FastifyInstance } from 'fastify';
import type { Album, World } from '../world/model';
import { withCaller, type CallerDeps } from './caller';
import { badRequest, resourceNotFound } from './errors';
import { assertBase62Id, parseIdList } from './ids';
import { checkMarket } from './markets';
import {
  albumObject,
  albumTracksLink,
  artistObject,
  publicUserObject,
  simplifiedAlbumObject,
  simplifiedTrackObject,
  trackObject,
  type AlbumGroup,
} from './objects';
import { apiUrl, pageOf, parseLimit, parseOffset, queryParam } from './paging';

type IdParams = { Params: { id: string } };

const PAGE = { default: 20, max: 50 };
/** Development Mode: an artist's albums come at most 10 a page, 5 by default. */
const DEVELOPMENT_ARTIST_ALBUMS_PAGE = { default: 5, max: 10 };
const ALBUM_GROUPS: readonly AlbumGroup[] = ['album', 'single', 'compilation', 'appears_on'];

interface Discography {
  /** Releases the artist is an album artist of. */
  own: Album[];
  /** Releases of others the artist plays on. */
  appearsOn: Album[];
}

/** Keyed by the catalogue (worlds of one seed and sizes share it), not by the world. */
const discographies = new WeakMap<readonly Album[], Map<string, Discography>>();

/** Per artist, the releases it made or appears on, newest first; computed once per world. */
function discography(world: World, artistId: string): Discography {
  let index = discographies.get(world.albums);
  if (!index) {
    index = new Map();
    const entry = (id: string) => {
      let found = index?.get(id);
      if (!found) {
        found = { own: [], appearsOn: [] };
        index?.set(id, found);
      }
      return found;
    };
    for (const album of world.albums) {
      for (const id of album.artistIds) entry(id).own.push(album);
      const guests = new Set<string>();
      for (const trackId of album.trackIds) {
        for (const id of world.track(trackId)?.artistIds ?? []) {
          if (!album.artistIds.includes(id)) guests.add(id);
        }
      }
      for (const id of guests) entry(id).appearsOn.push(album);
    }
    const newestFirst = (a: Album, b: Album) =>
      b.releasedAt - a.releasedAt || (a.id < b.id ? -1 : 1);
    for (const found of index.values()) {
      found.own.sort(newestFirst);
      found.appearsOn.sort(newestFirst);
    }
    discographies.set(world.albums, index);
  }
  return index.get(artistId) ?? { own: [], appearsOn: [] };
}

function parseIncludeGroups(value: string | undefined): ReadonlySet<AlbumGroup> {
  if (value === undefined || value === '') return new Set(ALBUM_GROUPS);
  const groups = new Set<AlbumGroup>();
  for (const name of value.split(',')) {
    const group = ALBUM_GROUPS.find((candidate) => candidate === name);
    if (!group) throw badRequest(`Invalid include_groups value: ${name}`);
    groups.add(group);
  }
  return groups;
}

const newReleaseLists = new WeakMap<readonly Album[], Album[]>();

/** Every release, newest first (computed once per world); new releases are its released part. */
function releasesNewestFirst(world: World): Album[] {
  let list = newReleaseLists.get(world.albums);
  if (!list) {
    list = [...world.albums].sort((a, b) => b.releasedAt - a.releasedAt || (a.id < b.id ? -1 : 1));
    newReleaseLists.set(world.albums, list);
  }
  return list;
}

/** Artists, albums and tracks by id, batch look-ups, top tracks, new releases and user profiles. */
export function registerCatalogueRoutes(app: FastifyInstance, deps: CallerDeps): void {
  const { world, publicUrl } = deps;

  app.get<IdParams>(
    '/artists/:id',
    withCaller<IdParams>(deps, (caller, request) => {
      const artist = world.artist(assertBase62Id(request.params.id));
      if (!artist) throw resourceNotFound();
      return artistObject(caller.objects, artist);
    }),
  );

  app.get<IdParams>(
    '/artists/:id/albums',
    withCaller<IdParams>(deps, (caller, request) => {
      const id = assertBase62Id(request.params.id);
      checkMarket(request);
      const groups = parseIncludeGroups(queryParam(request.query, 'include_groups'));
      const limit = parseLimit(
        queryParam(request.query, 'limit'),
        caller.extended ? PAGE : DEVELOPMENT_ARTIST_ALBUMS_PAGE,
      );
      const offset = parseOffset(queryParam(request.query, 'offset'));
      if (!world.artist(id)) throw resourceNotFound();
      // Like Spotify, a discography lists what is out: releases appear as the clock reaches them.
      const released = (album: Album) => album.releasedAt <= caller.now;
      const discographyNow = discography(world, id);
      const own = discographyNow.own.filter(released);
      const appearsOn = discographyNow.appearsOn.filter(released);
      const listed = [
        ...ALBUM_GROUPS.filter((group) => group !== 'appears_on' && groups.has(group)).flatMap(
          (group) =>
            own.filter((album) => album.albumType === group).map((album) => ({ album, group })),
        ),
        ...(groups.has('appears_on')
          ? appearsOn.map((album) => ({ album, group: 'appears_on' as const }))
          : []),
      ];
      const includeGroups = queryParam(request.query, 'include_groups') || undefined;
      const link = (offset: number, limit: number) =>
        apiUrl(publicUrl, `/artists/${id}/albums`, [
          ['offset', offset],
          ['limit', limit],
          ['include_groups', includeGroups],
        ]);
      return pageOf(link, { offset, limit }, listed, ({ album, group }) =>
        simplifiedAlbumObject(caller.objects, album, group),
      );
    }),
  );

  app.get<IdParams>(
    '/artists/:id/top-tracks',
    withCaller<IdParams>(deps, (caller, request) => {
      caller.requireExtendedMode();
      const id = assertBase62Id(request.params.id);
      checkMarket(request);
      if (!world.artist(id)) throw resourceNotFound();
      return { tracks: world.topTracks(id).map((track) => trackObject(caller.objects, track)) };
    }),
  );

  app.get<IdParams>(
    '/albums/:id',
    withCaller<IdParams>(deps, (caller, request) => {
      const id = assertBase62Id(request.params.id);
      checkMarket(request);
      const album = world.album(id);
      if (!album) throw resourceNotFound();
      return albumObject(caller.objects, album);
    }),
  );

  app.get<IdParams>(
    '/albums/:id/tracks',
    withCaller<IdParams>(deps, (caller, request) => {
      const id = assertBase62Id(request.params.id);
      checkMarket(request);
      const limit = parseLimit(queryParam(request.query, 'limit'), PAGE);
      const offset = parseOffset(queryParam(request.query, 'offset'));
      const album = world.album(id);
      if (!album) throw resourceNotFound();
      return pageOf(
        albumTracksLink(caller.objects, album),
        { offset, limit },
        album.trackIds,
        (trackId) => {
          const track = world.track(trackId);
          if (!track) throw new Error(`spotify-sandbox: album ${id} lists an unknown track`);
          return simplifiedTrackObject(caller.objects, track);
        },
      );
    }),
  );

  app.get<IdParams>(
    '/tracks/:id',
    withCaller<IdParams>(deps, (caller, request) => {
      const id = assertBase62Id(request.params.id);
      checkMarket(request);
      const track = world.track(id);
      if (!track) throw resourceNotFound();
      return trackObject(caller.objects, track);
    }),
  );

  // Batch look-ups (Extended Quota Mode only): unknown ids answer null in their place.
  app.get(
    '/tracks',
    withCaller(deps, (caller, request) => {
      caller.requireExtendedMode();
      const ids = parseIdList(queryParam(request.query, 'ids'), 50);
      checkMarket(request);
      return {
        tracks: ids.map((id) => {
          const track = world.track(id);
          return track ? trackObject(caller.objects, track) : null;
        }),
      };
    }),
  );

  app.get(
    '/albums',
    withCaller(deps, (caller, request) => {
      caller.requireExtendedMode();
      const ids = parseIdList(queryParam(request.query, 'ids'), 20);
      checkMarket(request);
      return {
        albums: ids.map((id) => {
          const album = world.album(id);
          return album ? albumObject(caller.objects, album) : null;
        }),
      };
    }),
  );

  app.get(
    '/artists',
    withCaller(deps, (caller, request) => {
      caller.requireExtendedMode();
      const ids = parseIdList(queryParam(request.query, 'ids'), 50);
      return {
        artists: ids.map((id) => {
          const artist = world.artist(id);
          return artist ? artistObject(caller.objects, artist) : null;
        }),
      };
    }),
  );

  app.get(
    '/browse/new-releases',
    withCaller(deps, (caller, request) => {
      caller.requireExtendedMode();
      const limit = parseLimit(queryParam(request.query, 'limit'), PAGE);
      const offset = parseOffset(queryParam(request.query, 'offset'));
      const released = releasesNewestFirst(world).filter((album) => album.releasedAt <= caller.now);
      const link = (offset: number, limit: number) =>
        apiUrl(publicUrl, '/browse/new-releases', [
          ['offset', offset],
          ['limit', limit],
        ]);
      return {
        albums: pageOf(link, { offset, limit }, released, (album) =>
          simplifiedAlbumObject(caller.objects, album),
        ),
      };
    }),
  );

  app.get<{ Params: { user_id: string } }>(
    '/users/:user_id',
    withCaller<{ Params: { user_id: string } }>(deps, (caller, request) => {
      caller.requireExtendedMode();
      const account = world.account(request.params.user_id);
      if (!account) throw resourceNotFound();
      return publicUserObject(caller.objects, account);
    }),
  );
}
