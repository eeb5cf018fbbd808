import { describe, expect, it } from 'vitest';
import { normalize, parseSearchQuery } from '../src/web-api/search';
import { API_BASE, apiError, TEST_START, testSandbox, type Json } from './support/web-api';
import { busyArtist, world } from './support/world-fixtures';

const names = (page: Json) => page.items.map((item: Json) => item.name);

/** A track whose name is shared by others and appears inside longer names. */
function popularName() {
  const counts = new Map<string, number>();
  for (const track of world.tracks) {
    counts.set(normalize(track.name), (counts.get(normalize(track.name)) ?? 0) + 1);
  }
  const [name] =
    [...counts].filter(([text]) => /^[a-z]+$/.test(text)).sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!name) throw new Error('no one-word track names');
  return name;
}

describe('GET /v1/search', () => {
  it('ranks exact names first, then names starting with the query, then by popularity', async () => {
    const user = await (await testSandbox()).user();
    const name = popularName();

    const { tracks } = await user.ok(`/search?q=${name}&type=track&limit=50`);

    const ranks = tracks.items.map((item: Json) => {
      const text = normalize(item.name);
      return text === name ? 0 : text.startsWith(name) ? 1 : 2;
    });
    expect(ranks[0]).toBe(0);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const exact = tracks.items.filter((_: Json, index: number) => ranks[index] === 0);
    const popularity = exact.map((item: Json) => item.popularity);
    expect(popularity).toEqual([...popularity].sort((a, b) => b - a));
    expect(tracks.total).toBeGreaterThan(exact.length);
    expect(tracks.href).toBe(`${API_BASE}/search?offset=0&limit=50&query=${name}&type=track`);
  });

  it('matches words by their beginning, across artist and album names, ignoring case and accents', async () => {
    const user = await (await testSandbox()).user();
    const artist = busyArtist();
    const prefix = artist.name.slice(0, Math.max(3, artist.name.indexOf(' '))).toUpperCase();

    const { artists } = await user.ok(`/search?q=${encodeURIComponent(prefix)}&type=artist`);
    expect(names(artists)).toContain(artist.name);

    const { tracks } = await user.ok(
      `/search?q=${encodeURIComponent(artist.name)}&type=track&limit=50`,
    );
    expect(tracks.items.length).toBeGreaterThan(0);
    expect(
      tracks.items.some((item: Json) => item.artists.some((a: Json) => a.id === artist.id)),
    ).toBe(true);
  });

  it('applies artist:, album:, track:, year:, isrc: and genre: filters', async () => {
    const user = await (await testSandbox()).user();
    const artist = busyArtist();
    const album = world.album(artist.albumIds[0] ?? '');
    const track = world.track(album?.trackIds[0] ?? '');
    if (!album || !track) throw new Error('the busy artist has no tracks');
    const q = (text: string) => encodeURIComponent(text);

    const byArtist = await user.ok(
      `/search?q=${q(`artist:"${artist.name}"`)}&type=track,album&limit=50`,
    );
    for (const item of [...byArtist.tracks.items, ...byArtist.albums.items]) {
      expect(item.artists.map((a: Json) => normalize(a.name)).join(' ')).toContain(
        normalize(artist.name).split(' ')[0],
      );
    }
    expect(byArtist.albums.items.map((item: Json) => item.id)).toContain(album.id);

    const byAlbum = await user.ok(
      `/search?q=${q(`album:"${album.name}" track:"${track.name}"`)}&type=track`,
    );
    expect(byAlbum.tracks.items.map((item: Json) => item.id)).toContain(track.id);

    const year = new Date(album.releasedAt).getUTCFullYear();
    const byYear = await user.ok(`/search?q=${q(`year:${year - 1}-${year}`)}&type=album&limit=50`);
    for (const item of byYear.albums.items) {
      const released = Number(item.release_date.slice(0, 4));
      expect(released).toBeGreaterThanOrEqual(year - 1);
      expect(released).toBeLessThanOrEqual(year);
    }

    const byIsrc = await user.ok(`/search?q=isrc:${track.isrc}&type=track`);
    expect(byIsrc.tracks.items.map((item: Json) => item.external_ids.isrc)).toEqual(
      world
        .tracksByIsrc(track.isrc)
        .slice(0, 20)
        .map(() => track.isrc),
    );

    const genre = artist.genres[0] ?? '';
    const byGenre = await user.ok(`/search?q=${q(`genre:"${genre}"`)}&type=artist&limit=50`);
    for (const item of byGenre.artists.items) expect(item.genres).toContain(genre);
    expect(byGenre.artists.total).toBe(
      world.artists.filter((a) => a.genres.some((g) => normalize(g).includes(normalize(genre))))
        .length,
    );
  });

  it('answers each asked type, podcasts and audiobooks empty, public playlists only', async () => {
    const user = await (await testSandbox()).user();
    const playlist = world.playlists.find((p) => p.public && p.createdAt <= TEST_START);
    const secret = world.playlists.find((p) => !p.public && p.createdAt <= TEST_START);
    if (!playlist || !secret) throw new Error('no playlists');

    const body = await user.ok(
      `/search?q=${encodeURIComponent(playlist.name)}&type=playlist,show,episode,audiobook&limit=50`,
    );
    expect(Object.keys(body)).toEqual(['playlists', 'shows', 'episodes', 'audiobooks']);
    expect(body.playlists.items.map((item: Json) => item.id)).toContain(playlist.id);
    expect(body.playlists.items.every((item: Json) => item.public)).toBe(true);
    expect(body.shows).toMatchObject({ items: [], total: 0, next: null });

    const secretSearch = await user.ok(
      `/search?q=${encodeURIComponent(secret.name)}&type=playlist&limit=50`,
    );
    expect(secretSearch.playlists.items.map((item: Json) => item.id)).not.toContain(secret.id);
  });

  it('limits pages to 10 (5 by default) in Development Mode, 50 (20) otherwise', async () => {
    const sandbox = await testSandbox();
    const development = await sandbox.user({ mode: 'development' });
    const extended = await sandbox.user();

    expect((await development.ok('/search?q=a&type=track')).tracks.limit).toBe(5);
    expect((await development.get('/search?q=a&type=track&limit=11')).body).toEqual(
      apiError(400, 'Invalid limit'),
    );
    expect((await extended.ok('/search?q=a&type=track')).tracks.limit).toBe(20);
    expect((await extended.ok('/search?q=a&type=track&limit=50')).tracks.items).toHaveLength(50);
    expect((await extended.get('/search?q=a&type=track&limit=51')).status).toBe(400);
    const deep = await extended.ok('/search?q=a&type=track&offset=1000&limit=5');
    expect(deep.tracks.offset).toBe(1000);
    expect(deep.tracks.next).toBeNull();
    expect((await extended.get('/search?q=a&type=track&offset=1001')).status).toBe(400);
    const dev = await development.ok('/search?q=love&type=artist');
    expect(dev.artists.items[0]).not.toHaveProperty('popularity');
  });

  it('pages with next links that keep the query', async () => {
    const user = await (await testSandbox()).user();

    const first = await user.ok('/search?q=love%20song&type=track&limit=3');
    const next = await user.ok(
      String(first.tracks.next).slice(API_BASE.length).replace('query=', 'q='),
    );

    expect(first.tracks.next).toBe(
      `${API_BASE}/search?offset=3&limit=3&query=love%20song&type=track`,
    );
    expect(next.tracks.offset).toBe(3);
    expect(next.tracks.items[0].id).not.toBe(first.tracks.items[0].id);
  });

  it('refuses a missing query, a missing or unknown type and a bad year', async () => {
    const user = await (await testSandbox()).user();

    expect((await user.get('/search?type=track')).body).toEqual(apiError(400, 'No search query'));
    expect((await user.get('/search?q=a')).body).toEqual(apiError(400, 'Missing parameter type'));
    expect((await user.get('/search?q=a&type=song')).body).toEqual(
      apiError(400, 'Bad search type field'),
    );
    expect((await user.get('/search?q=year:recent&type=album')).status).toBe(400);
  });
});

describe('parseSearchQuery', () => {
  it('separates quoted and bare filters from the free text', () => {
    const query = parseSearchQuery('Doxy artist:"Miles Davis" year:1955-1960 tag:new remaster');

    expect(query.text).toBe('doxy remaster');
    expect(query.artist).toEqual(['miles', 'davis']);
    expect(query.year).toEqual({ from: 1955, to: 1960 });
    expect([...query.tags]).toEqual(['new']);
  });

  it('reads unknown fields as free text', () => {
    expect(parseSearchQuery('mood:happy Björk').terms).toEqual(['mood', 'happy', 'bjork']);
  });
});
