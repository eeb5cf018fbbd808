import type { FastifyInstance } from 'fastify';
import type { Playlist } from '../world/model';
import { withCaller, type Caller, type CallerDeps } from './caller';
import { ApiError, closedInDevelopmentMode, insufficientScope } from './errors';
import { assertBase62Id } from './ids';
import { checkMarket } from './markets';
import {
  playlistItemsPage,
  playlistObject,
  simplifiedPlaylistObject,
  type PlaylistItemsPath,
} from './objects';
import { apiUrl, pageOf, parseLimit, parseOffset, queryParam, type LimitRule } from './paging';

type PlaylistParams = { Params: { playlist_id: string } };

const PAGE = { default: 20, max: 50 };
/** The page sizes of the two item listings, as the descriptions give them. */
const ITEMS_PAGE: Record<PlaylistItemsPath, LimitRule> = {
  items: { default: 20, max: 50 },
  tracks: { default: 20, max: 100 },
};

/** Spotify's playlist service words a missing playlist so. */
const playlistNotFound = () => new ApiError(404, 'Not found.');

/** The scope that lets an app read a non-public playlist: collaborative ones have their own. */
function readScope(playlist: Playlist): string {
  return playlist.collaborative ? 'playlist-read-collaborative' : 'playlist-read-private';
}

/** The playlists in the caller's library at its time: its own and those it follows. */
function libraryOf(caller: Caller): readonly Playlist[] {
  return caller.objects.world.playlistsOf(caller.account.id, caller.now);
}

/**
 * The owner, or a collaborator: someone with a collaborative playlist in their library. An app's
 * own token (client_credentials) has no user, so it edits nothing.
 */
function canEdit(caller: Caller, playlist: Playlist): boolean {
  if (!caller.hasUser) return false;
  if (playlist.ownerId === caller.account.id) return true;
  return playlist.collaborative && libraryOf(caller).some(({ id }) => id === playlist.id);
}

/**
 * A playlist the caller may read. Public ones are open to everyone; a private or collaborative
 * one only to people who have it in their library (its owner among them), and only with the scope
 * to read such playlists: without it, Spotify's 403 "Insufficient client scope".
 */
function readablePlaylist(caller: Caller, id: string): Playlist {
  const playlist = caller.objects.world.playlist(assertBase62Id(id));
  if (!playlist) throw playlistNotFound();
  if (playlist.public) return playlist;
  // An app's own token reads public playlists alone: it is in no one's library.
  if (!caller.hasUser) throw playlistNotFound();
  const inLibrary =
    playlist.ownerId === caller.account.id || libraryOf(caller).some((p) => p.id === playlist.id);
  if (!inLibrary) throw playlistNotFound();
  if (!caller.hasScope(readScope(playlist))) throw insufficientScope();
  return playlist;
}

/** `/me/playlists`, `/playlists/{id}` and its item listings. */
export function registerPlaylistRoutes(app: FastifyInstance, deps: CallerDeps): void {
  const { publicUrl } = deps;

  app.get(
    '/me/playlists',
    withCaller(deps, (caller, request) => {
      const limit = parseLimit(queryParam(request.query, 'limit'), PAGE);
      const offset = parseOffset(queryParam(request.query, 'offset'), 100_000);
      // Without the scopes, private and collaborative playlists are simply not listed.
      const listed = libraryOf(caller).filter(
        (playlist) => playlist.public || caller.hasScope(readScope(playlist)),
      );
      const link = (offset: number, limit: number) =>
        apiUrl(publicUrl, '/me/playlists', [
          ['offset', offset],
          ['limit', limit],
        ]);
      return pageOf(link, { offset, limit }, listed, (playlist) =>
        simplifiedPlaylistObject(caller.objects, playlist),
      );
    }),
  );

  app.get<PlaylistParams>(
    '/playlists/:playlist_id',
    withCaller<PlaylistParams>(deps, (caller, request) => {
      const playlist = readablePlaylist(caller, request.params.playlist_id);
      checkMarket(request);
      // Since February 2026 a Development Mode app sees the items of a playlist only if the user
      // owns it or collaborates on it, as with `/items`.
      const withItems = caller.extended || canEdit(caller, playlist);
      return playlistObject(caller.objects, playlist, { withItems });
    }),
  );

  const itemListing = (path: PlaylistItemsPath) =>
    withCaller<PlaylistParams>(deps, (caller, request) => {
      if (path === 'tracks') caller.requireExtendedMode();
      const playlist = readablePlaylist(caller, request.params.playlist_id);
      checkMarket(request);
      const limit = parseLimit(queryParam(request.query, 'limit'), ITEMS_PAGE[path]);
      const offset = parseOffset(queryParam(request.query, 'offset'));
      // The README's rule: in Development Mode, `/items` of a playlist the user neither owns
      // nor collaborates on is a 403.
      if (!caller.extended && !canEdit(caller, playlist)) throw closedInDevelopmentMode();
      return playlistItemsPage(caller.objects, playlist, path, { offset, limit });
    });
  app.get<PlaylistParams>('/playlists/:playlist_id/items', itemListing('items'));
  app.get<PlaylistParams>('/playlists/:playlist_id/tracks', itemListing('tracks'));
}
