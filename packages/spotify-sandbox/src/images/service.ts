import type { FastifyPluginAsync } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { SandboxAccount } from '../world/account';
import type { AccountDirectory } from '../world/account';
import type { Album, Artist, Playlist, World } from '../world/model';
import { AVATAR_SIZES, avatarImages, isAvatarSize, renderAvatarSvg } from './avatar';
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
import { rasterize } from './raster';

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

/** Images the Web API links to (`i.scdn.co` on Spotify), drawn rather than fetched. */
export function imagesService({
  accounts,
  world,
}: {
  accounts: AccountDirectory;
  world: World;
}): FastifyPluginAsync {
  const artistName = (album: Album) =>
    album.artistIds.map((id) => world.artist(id)?.name ?? '').join(', ');
  /** Each kind of picture: its sizes, and its drawing by id (undefined for an unknown id). */
  const pictures: Record<string, { sizes: readonly number[]; draw: Drawing }> = {
    avatars: {
      sizes: AVATAR_SIZES,
      draw: (id, size) => {
        const account = accounts.get(id);
        return account && isAvatarSize(size) ? renderAvatarSvg(account, size) : undefined;
      },
    },
    albums: {
      sizes: ALBUM_IMAGE_SIZES,
      draw: (id, size) => {
        const album = world.album(id);
        return album && renderAlbumCover(album, artistName(album), size);
      },
    },
    artists: {
      sizes: ARTIST_IMAGE_SIZES,
      draw: (id, size) => {
        const artist = world.artist(id);
        return artist && renderArtistPicture(artist, size);
      },
    },
    mosaics: {
      sizes: MOSAIC_IMAGE_SIZES,
      draw: (id, size) => {
        const albums: Album[] = [];
        for (let offset = 0; offset < id.length; offset += SPOTIFY_ID_LENGTH) {
          const album = world.album(id.slice(offset, offset + SPOTIFY_ID_LENGTH));
          if (album) albums.push(album);
        }
        if (albums.length !== 4 || id.length !== 4 * SPOTIFY_ID_LENGTH) return undefined;
        return renderMosaic(
          albums.map((album) => ({ album, artistName: artistName(album) })),
          size,
        );
      },
    },
  };
  // A picture is a function of its URL: each is drawn once while it is asked for (the PNG
  // encoding runs on the event loop, up to ~8 ms for a 640 px cover).
  const drawn = new LRUCache<string, Buffer>({
    maxSize: DRAWN_PICTURES_MAX_BYTES,
    sizeCalculation: (png) => png.length,
  });
  return async (app) => {
    app.get<{ Params: { kind: string; size: string; id: string } }>(
      '/:kind/:size/:id',
      async (request, reply) => {
        const { kind, size, id } = request.params;
        const picture = Object.hasOwn(pictures, kind) ? pictures[kind] : undefined;
        const pixels = Number(size);
        if (!picture?.sizes.includes(pixels)) return reply.callNotFound();
        // Earlier sandboxes served SVG files, and a data folder keeps the URLs they gave.
        const legacy = id.endsWith(LEGACY_EXTENSION);
        const name = legacy ? id.slice(0, -LEGACY_EXTENSION.length) : id;
        const key = `${kind}/${pixels}/${name}`;
        let png = drawn.get(key);
        if (png === undefined) {
          const svg = picture.draw(name, pixels);
          if (svg === undefined) return reply.callNotFound();
          png = await rasterize(svg);
          drawn.set(key, png);
        }
        if (legacy) return reply.redirect(encodeURIComponent(name), 301);
        return reply
          .header('content-type', 'image/png')
          .header('cache-control', 'public, max-age=86400')
          .header('x-content-type-options', 'nosniff')
          .send(png);
      },
    );
  };
}

type Drawing = (id: string, size: number) => string | undefined;

const LEGACY_EXTENSION = '.svg';
/** About a thousand 300 px covers. */
const DRAWN_PICTURES_MAX_BYTES = 16 * 1024 * 1024;
