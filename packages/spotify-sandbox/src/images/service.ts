import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { SandboxAccount } from '../world/account';
import type { AccountDirectory } from '../world/account';
import type { Album, Artist, Playlist, World } from '../world/model';
import { avatarImages, isAvatarSize, renderAvatarSvg } from './avatar';
import {
  ALBUM_IMAGE_SIZES,
  albumImages,
  ARTIST_IMAGE_SIZES,
  artistImages,
  MOSAIC_IMAGE_SIZES,
  playlistImages,
  renderAlbumCover,
  renderArtistPicture,
  renderMosaic,
} from './covers';

/** Where the pictures of the world are: the Web API's `images` arrays, absolute URLs. */
export function imageUrls(world: World, publicUrl: string) {
  return {
    artist: (artist: Artist) => artistImages(artist, publicUrl),
    album: (album: Album) => albumImages(album, publicUrl),
    playlist: (playlist: Playlist, atMs: number) =>
      playlistImages(world, playlist, atMs, publicUrl),
    user: (account: SandboxAccount) => avatarImages(account, publicUrl),
  };
}

const SPOTIFY_ID_LENGTH = 22;

/** Images the Web API links to (`i.scdn.co` on Spotify), generated rather than fetched. */
export function imagesService({
  accounts,
  world,
}: {
  accounts: AccountDirectory;
  world: World;
}): FastifyPluginAsync {
  const artistName = (album: Album) =>
    album.artistIds.map((id) => world.artist(id)?.name ?? '').join(', ');
  return async (app) => {
    app.get<{ Params: { size: string; file: string } }>(
      '/avatars/:size/:file',
      async (request, reply) => {
        const size = Number(request.params.size);
        const account = accounts.get(svgName(request.params.file) ?? '');
        if (!account || !isAvatarSize(size)) return reply.callNotFound();
        return sendSvg(reply, renderAvatarSvg(account, size));
      },
    );

    app.get<{ Params: { size: string; file: string } }>(
      '/albums/:size/:file',
      async (request, reply) => {
        const size = Number(request.params.size);
        const album = world.album(svgName(request.params.file) ?? '');
        if (!album || !isOneOf(ALBUM_IMAGE_SIZES, size)) return reply.callNotFound();
        return sendSvg(reply, renderAlbumCover(album, artistName(album), size));
      },
    );

    app.get<{ Params: { size: string; file: string } }>(
      '/artists/:size/:file',
      async (request, reply) => {
        const size = Number(request.params.size);
        const artist = world.artist(svgName(request.params.file) ?? '');
        if (!artist || !isOneOf(ARTIST_IMAGE_SIZES, size)) return reply.callNotFound();
        return sendSvg(reply, renderArtistPicture(artist, size));
      },
    );

    app.get<{ Params: { size: string; file: string } }>(
      '/mosaics/:size/:file',
      async (request, reply) => {
        const size = Number(request.params.size);
        const name = svgName(request.params.file) ?? '';
        const albums: Album[] = [];
        for (let offset = 0; offset < name.length; offset += SPOTIFY_ID_LENGTH) {
          const album = world.album(name.slice(offset, offset + SPOTIFY_ID_LENGTH));
          if (album) albums.push(album);
        }
        if (albums.length !== 4 || name.length !== 4 * SPOTIFY_ID_LENGTH)
          return reply.callNotFound();
        if (!isOneOf(MOSAIC_IMAGE_SIZES, size)) return reply.callNotFound();
        const covers = albums.map((album) => ({ album, artistName: artistName(album) }));
        return sendSvg(reply, renderMosaic(covers, size));
      },
    );
  };
}

function svgName(file: string): string | undefined {
  return file.endsWith('.svg') ? file.slice(0, -4) : undefined;
}

function isOneOf(sizes: readonly number[], size: number): boolean {
  return sizes.includes(size);
}

function sendSvg(reply: FastifyReply, svg: string) {
  return reply
    .header('content-type', 'image/svg+xml; charset=utf-8')
    .header('cache-control', 'public, max-age=86400')
    .header('content-security-policy', "default-src 'none'")
    .header('x-content-type-options', 'nosniff')
    .send(svg);
}
