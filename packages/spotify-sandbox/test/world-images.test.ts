import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumImages, artistImages, playlistImages } from '../src/images/covers';
import { createWorld } from '../src/world/world';
import { buildSandbox, PUBLIC_URL } from './helpers';

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

async function fetchSvg(url: string) {
  const response = await app.inject({ url: relative(url) });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
  expect(response.headers['content-security-policy']).toBe("default-src 'none'");
  expect(response.body).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  expect(response.body).not.toMatch(/<script|style=|href="http/i);
  return response.body;
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
    const body = await fetchSvg(large?.url ?? '');
    expect(body).toContain('width="640"');
    expect(await fetchSvg(large?.url ?? '')).toBe(body);
    expect(await fetchSvg(small?.url ?? '')).toContain('width="64"');
    const other = await fetchSvg(albumImages(world.albums[43]!, PUBLIC_URL)[0]?.url ?? '');
    expect(other).not.toBe(body);
  });

  it('serves artist pictures', async () => {
    const images = artistImages(world.artists[7]!, PUBLIC_URL);
    expect(images.map(({ width }) => width)).toEqual([640, 320, 160]);
    for (const image of images) await fetchSvg(image.url);
  });

  it('gives playlists a mosaic of their first four albums, or the first cover', async () => {
    const mosaic = world.playlists.find(
      (playlist) =>
        new Set(playlist.items.map((item) => world.track(item.trackId)?.albumId)).size >= 4,
    );
    const images = playlistImages(world, mosaic!, NOW, PUBLIC_URL);
    expect(images.map(({ width }) => width)).toEqual([640, 300, 60]);
    expect(images[0]?.url).toMatch(/\/images\/mosaics\/640\/[0-9A-Za-z]{88}\.svg$/);
    for (const image of images) await fetchSvg(image.url);

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
      `/sandbox/images/albums/300/${'0'.repeat(22)}.svg`,
      `/sandbox/images/albums/301/${album}.svg`,
      `/sandbox/images/albums/300/${album}.png`,
      `/sandbox/images/artists/300/${world.artists[0]!.id}.svg`,
      `/sandbox/images/mosaics/640/${album}${album}${album}.svg`,
    ]) {
      expect((await app.inject({ url })).statusCode).toBe(404);
    }
  });
});
