import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { albumImages, artistImages, playlistImages } from '../src/images/covers';
import type * as raster from '../src/images/raster';
import { rasterize } from '../src/images/raster';
import { createWorld } from '../src/world/world';
import { buildSandbox, pngSize, PUBLIC_URL } from './helpers';

vi.mock('../src/images/raster', async (original) => {
  const actual = await original<typeof raster>();
  return { ...actual, rasterize: vi.fn(actual.rasterize) };
});

const world = createWorld();
const NOW = Date.UTC(2026, 10, 21, 12);
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildSandbox({ world });
});
afterAll(async () => {
  await app.close();
});

function relative(url: string): string {
  expect(url.startsWith(`${PUBLIC_URL}/`)).toBe(true);
  return `/sandbox/${url.slice(PUBLIC_URL.length + 1)}`;
}

/** Fetches a picture and checks it is a PNG of the size its image object gives. */
async function fetchPicture({
  url,
  width,
  height,
}: {
  url: string;
  width: number;
  height: number;
}) {
  const response = await app.inject({ url: relative(url) });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('image/png');
  expect(response.headers['cache-control']).toBe('public, max-age=86400');
  expect(pngSize(response.rawPayload)).toEqual({ width, height });
  return response.rawPayload;
}

describe('catalogue images', () => {
  it('serves album covers in Spotify’s sizes, the same for the same album', async () => {
    const album = world.albums[42];
    const images = albumImages(album ?? world.albums[0]!, PUBLIC_URL);
    expect(images.map(({ width, height }) => [width, height])).toEqual([
      [640, 640],
      [300, 300],
      [64, 64],
    ]);
    const [large, , small] = images;
    const picture = await fetchPicture(large!);
    expect((await fetchPicture(large!)).equals(picture)).toBe(true);
    await fetchPicture(small!);
    const other = await fetchPicture(albumImages(world.albums[43]!, PUBLIC_URL)[0]!);
    expect(other.equals(picture)).toBe(false);
  });

  it('serves artist pictures', async () => {
    const images = artistImages(world.artists[7]!, PUBLIC_URL);
    expect(images.map(({ width }) => width)).toEqual([640, 320, 160]);
    for (const image of images) await fetchPicture(image);
  });

  it('gives playlists a mosaic of their first four albums, or the first cover', async () => {
    const mosaic = world.playlists.find(
      (playlist) =>
        new Set(playlist.items.map((item) => world.track(item.trackId)?.albumId)).size >= 4,
    );
    const images = playlistImages(world, mosaic!, NOW, PUBLIC_URL);
    expect(images.map(({ width }) => width)).toEqual([640, 300, 60]);
    expect(images[0]?.url).toMatch(/\/images\/mosaics\/640\/[0-9A-Za-z]{88}$/);
    for (const image of images) await fetchPicture(image);

    const first = mosaic!.items[0]!;
    const early = playlistImages(world, mosaic!, first.addedAt, PUBLIC_URL);
    const firstAlbum = world.album(world.track(first.trackId)!.albumId)!;
    expect(world.playlistItems(mosaic!.id, first.addedAt)).toHaveLength(1);
    expect(early).toEqual(albumImages(firstAlbum, PUBLIC_URL));
    expect(playlistImages(world, mosaic!, mosaic!.createdAt - 1, PUBLIC_URL)).toEqual([]);
  });

  it('answers 404 for unknown items and sizes', async () => {
    const album = world.albums[0]!.id;
    for (const url of [
      `/sandbox/images/albums/300/${'0'.repeat(22)}`,
      `/sandbox/images/albums/301/${album}`,
      `/sandbox/images/albums/300/${album}.png`,
      `/sandbox/images/artists/300/${world.artists[0]!.id}`,
      `/sandbox/images/mosaics/640/${album}${album}${album}`,
      `/sandbox/images/tracks/300/${album}`,
      `/sandbox/images/tracks/300/${album}.svg`,
      `/sandbox/images/albums/301/${album}.svg`,
      `/sandbox/images/albums/300/${'0'.repeat(22)}.svg`,
      '/sandbox/images/albums/300/.svg',
      `/sandbox/images/hasOwnProperty/300/${album}`,
    ]) {
      expect((await app.inject({ url })).statusCode).toBe(404);
    }
  });

  it('draws a picture once while it is asked for again', async () => {
    const [, medium] = albumImages(world.albums[44]!, PUBLIC_URL);
    const before = vi.mocked(rasterize).mock.calls.length;
    const first = await fetchPicture(medium!);
    expect((await fetchPicture(medium!)).equals(first)).toBe(true);
    expect(vi.mocked(rasterize).mock.calls.length - before).toBe(1);
  });

  it('sends the SVG URLs of earlier sandboxes on to their pictures', async () => {
    const album = world.albums[0]!.id;
    const response = await app.inject({ url: `/sandbox/images/albums/300/${album}.svg` });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(album);
  });
});
