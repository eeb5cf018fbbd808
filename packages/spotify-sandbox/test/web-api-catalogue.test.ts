import { describe, expect, it } from 'vitest';
import { MARKETS } from '../src/web-api/markets';
import { API_BASE, apiError, PUBLIC_URL, testSandbox, V1, type Json } from './support/web-api';
import {
  albumWithTracks,
  artistAppearances,
  busyArtist,
  MALFORMED_ID,
  someArtist,
  someTrack,
  UNKNOWN_ID,
  world,
} from './support/world-fixtures';

const track = someTrack(7);
const album = albumWithTracks(8);

describe('GET /v1/tracks/{id}', () => {
  it('answers the full TrackObject to an app in Extended Quota Mode', async () => {
    const user = await (await testSandbox()).user();
    const trackAlbum = world.album(track.albumId);

    const body = await user.ok(`/tracks/${track.id}`);

    expect(body).toMatchObject({
      available_markets: MARKETS,
      disc_number: track.discNumber,
      duration_ms: track.durationMs,
      explicit: track.explicit,
      external_ids: { isrc: track.isrc },
      external_urls: { spotify: `https://open.spotify.com/track/${track.id}` },
      href: `${API_BASE}/tracks/${track.id}`,
      id: track.id,
      is_local: false,
      name: track.name,
      popularity: track.popularity,
      preview_url: null,
      track_number: track.trackNumber,
      type: 'track',
      uri: `spotify:track:${track.id}`,
    });
    expect(body.album).toMatchObject({
      id: trackAlbum?.id,
      name: trackAlbum?.name,
      album_type: trackAlbum?.albumType,
      release_date: trackAlbum?.releaseDate,
      total_tracks: trackAlbum?.trackIds.length,
      available_markets: MARKETS,
    });
    expect(body.album.images).toEqual([
      { url: `${PUBLIC_URL}/images/albums/640/${track.albumId}`, height: 640, width: 640 },
      { url: `${PUBLIC_URL}/images/albums/300/${track.albumId}`, height: 300, width: 300 },
      { url: `${PUBLIC_URL}/images/albums/64/${track.albumId}`, height: 64, width: 64 },
    ]);
    expect(body.artists.map((artist: Json) => artist.id)).toEqual(track.artistIds);
    expect(body.artists[0]).toEqual({
      external_urls: { spotify: `https://open.spotify.com/artist/${track.artistIds[0]}` },
      href: `${API_BASE}/artists/${track.artistIds[0]}`,
      id: track.artistIds[0],
      name: world.artist(track.artistIds[0] ?? '')?.name,
      type: 'artist',
      uri: `spotify:artist:${track.artistIds[0]}`,
    });
  });

  it('leaves the deprecated fields out in Development Mode', async () => {
    const user = await (await testSandbox()).user({ mode: 'development' });

    const body = await user.ok(`/tracks/${track.id}`);

    expect(Object.keys(body)).toEqual([
      'album',
      'artists',
      'disc_number',
      'duration_ms',
      'explicit',
      'external_ids',
      'external_urls',
      'href',
      'id',
      'is_local',
      'name',
      'track_number',
      'type',
      'uri',
    ]);
    expect(body.album).not.toHaveProperty('available_markets');
  });

  it('answers 400 for a malformed id, 404 for an unknown one, 400 for a bad market', async () => {
    const user = await (await testSandbox()).user();

    expect((await user.get(`/tracks/${MALFORMED_ID}`)).body).toEqual(
      apiError(400, 'Invalid base62 id'),
    );
    const unknown = await user.get(`/tracks/${UNKNOWN_ID}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(apiError(404, 'Resource not found'));
    expect((await user.get(`/tracks/${track.id}?market=XX`)).body).toEqual(
      apiError(400, 'Invalid market code'),
    );
    expect((await user.get(`/tracks/${track.id}?market=from_token`)).status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const { app } = await testSandbox();

    const response = await app.inject({ url: `${V1}/tracks/${track.id}` });

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(apiError(401, 'No token provided'));
  });
});

describe('GET /v1/artists/{id}', () => {
  const artist = someArtist(5);

  it('includes genres, popularity and followers only in Extended Quota Mode', async () => {
    const sandbox = await testSandbox();
    const extended = await (await sandbox.user()).ok(`/artists/${artist.id}`);
    const development = await (
      await sandbox.user({ mode: 'development' })
    ).ok(`/artists/${artist.id}`);

    expect(extended).toEqual({
      external_urls: { spotify: `https://open.spotify.com/artist/${artist.id}` },
      followers: { href: null, total: artist.followers },
      genres: artist.genres,
      href: `${API_BASE}/artists/${artist.id}`,
      id: artist.id,
      images: [640, 320, 160].map((size) => ({
        url: `${PUBLIC_URL}/images/artists/${size}/${artist.id}`,
        height: size,
        width: size,
      })),
      name: artist.name,
      popularity: artist.popularity,
      type: 'artist',
      uri: `spotify:artist:${artist.id}`,
    });
    const { followers: _f, genres: _g, popularity: _p, ...rest } = extended;
    expect(development).toEqual(rest);
  });
});

describe('GET /v1/albums/{id} and /tracks', () => {
  it('embeds the first 50 tracks and the Extended Quota Mode fields', async () => {
    const sandbox = await testSandbox();
    const extended = await (await sandbox.user()).ok(`/albums/${album.id}`);
    const development = await (
      await sandbox.user({ mode: 'development' })
    ).ok(`/albums/${album.id}`);

    expect(extended).toMatchObject({
      album_type: album.albumType,
      copyrights: album.copyrights,
      external_ids: { upc: album.upc },
      genres: [],
      label: album.label,
      popularity: album.popularity,
      release_date_precision: album.releaseDatePrecision,
    });
    expect(extended.tracks).toMatchObject({
      href: `${API_BASE}/albums/${album.id}/tracks?offset=0&limit=50`,
      limit: 50,
      offset: 0,
      previous: null,
      total: album.trackIds.length,
    });
    expect(extended.tracks.items.map((item: Json) => item.id)).toEqual(album.trackIds.slice(0, 50));
    expect(extended.tracks.items[0]).toHaveProperty('preview_url', null);
    for (const field of ['available_markets', 'genres', 'label', 'popularity']) {
      expect(development).not.toHaveProperty(field);
    }
    expect(development.tracks.items[0]).not.toHaveProperty('available_markets');
    expect(development.external_ids).toEqual({ upc: album.upc });
  });

  it('pages an album’s tracks with offset and limit', async () => {
    const user = await (await testSandbox()).user();

    const page = await user.ok(`/albums/${album.id}/tracks?offset=2&limit=3`);

    expect(page.items.map((item: Json) => item.id)).toEqual(album.trackIds.slice(2, 5));
    expect(page).toMatchObject({
      href: `${API_BASE}/albums/${album.id}/tracks?offset=2&limit=3`,
      limit: 3,
      offset: 2,
      next: `${API_BASE}/albums/${album.id}/tracks?offset=5&limit=3`,
      previous: `${API_BASE}/albums/${album.id}/tracks?offset=0&limit=3`,
      total: album.trackIds.length,
    });
    expect(page.items[0]).not.toHaveProperty('album');
    const last = await user.ok(`/albums/${album.id}/tracks?offset=${album.trackIds.length - 1}`);
    expect(last.next).toBeNull();
    expect(last.items).toHaveLength(1);
  });

  it('refuses bad limits and offsets', async () => {
    const user = await (await testSandbox()).user();

    for (const query of ['limit=0', 'limit=51', 'limit=ten', 'limit=2.5']) {
      expect((await user.get(`/albums/${album.id}/tracks?${query}`)).body).toEqual(
        apiError(400, 'Invalid limit'),
      );
    }
    expect((await user.get(`/albums/${album.id}/tracks?offset=-1`)).body).toEqual(
      apiError(400, 'Invalid offset'),
    );
  });
});

describe('GET /v1/artists/{id}/albums', () => {
  const artist = busyArtist();

  it('lists albums, singles, compilations, then appearances, newest first in each group', async () => {
    const user = await (await testSandbox()).user();

    const page = await user.ok(`/artists/${artist.id}/albums?limit=50`);

    const groups: string[] = page.items.map((item: Json) => item.album_group);
    const order = ['album', 'single', 'compilation', 'appears_on'];
    expect(groups).toEqual([...groups].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    for (const group of order) {
      const dates = page.items
        .filter((item: Json) => item.album_group === group)
        .map((item: Json) => world.album(item.id)?.releasedAt ?? 0);
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
    }
    const appearances = artistAppearances(artist.id).map(({ id }) => id);
    expect(page.total).toBe(
      world.albums.filter((a) => a.artistIds.includes(artist.id)).length + appearances.length,
    );
    expect(
      page.items
        .filter((item: Json) => item.album_group === 'appears_on')
        .map((item: Json) => item.id),
    ).toEqual(expect.arrayContaining(appearances.slice(0, 1)));
  });

  it('filters by include_groups and keeps them in the links', async () => {
    const user = await (await testSandbox()).user();

    const page = await user.ok(`/artists/${artist.id}/albums?include_groups=single,album&limit=1`);

    expect(page.items[0].album_group).toBe('album');
    expect(page.href).toBe(
      `${API_BASE}/artists/${artist.id}/albums?offset=0&limit=1&include_groups=single,album`,
    );
    expect(page.next).toBe(
      `${API_BASE}/artists/${artist.id}/albums?offset=1&limit=1&include_groups=single,album`,
    );
    const singles = await user.ok(`/artists/${artist.id}/albums?include_groups=single&limit=50`);
    expect(new Set(singles.items.map((item: Json) => item.album_group))).toEqual(
      new Set(['single']),
    );
    expect((await user.get(`/artists/${artist.id}/albums?include_groups=ep`)).status).toBe(400);
  });

  it.each(['extended', 'development'] as const)(
    'lists only what is out at the clock: a release appears when it comes out (%s)',
    async (mode) => {
      const newest = world.albums
        .filter((a) => a.artistIds.includes(artist.id))
        .sort((a, b) => b.releasedAt - a.releasedAt)[0];
      if (!newest) throw new Error('the busy artist has releases');
      const group = newest.albumType === 'compilation' ? 'compilation' : newest.albumType;
      const url = `/artists/${artist.id}/albums?include_groups=${group}&limit=10`;
      // Half an hour before: within the access token's hour.
      const sandbox = await testSandbox(newest.releasedAt - 30 * 60_000);
      const user = await sandbox.user({ mode });

      const before = await user.ok(url);
      expect(before.items.map((item: Json) => item.id)).not.toContain(newest.id);
      expect(
        before.items.every(
          (item: Json) => (world.album(item.id)?.releasedAt ?? 0) < newest.releasedAt,
        ),
      ).toBe(true);

      sandbox.clock.set(newest.releasedAt);
      const after = await user.ok(url);
      expect(after.items[0].id).toBe(newest.id);
      expect(after.total).toBe(before.total + 1);
    },
  );

  it('pages at most 10 (5 by default) and drops album_group in Development Mode', async () => {
    const sandbox = await testSandbox();
    const development = await sandbox.user({ mode: 'development' });
    const extended = await sandbox.user();

    const page = await development.ok(`/artists/${artist.id}/albums`);
    expect(page.limit).toBe(5);
    expect(page.items[0]).not.toHaveProperty('album_group');
    expect(page.items[0]).not.toHaveProperty('available_markets');
    expect((await development.get(`/artists/${artist.id}/albums?limit=11`)).body).toEqual(
      apiError(400, 'Invalid limit'),
    );
    expect((await extended.ok(`/artists/${artist.id}/albums`)).limit).toBe(20);
    expect((await extended.get(`/artists/${artist.id}/albums?limit=50`)).status).toBe(200);
  });
});

describe('endpoints closed to Development Mode', () => {
  const artist = busyArtist();
  const closed = [
    `/artists/${artist.id}/top-tracks`,
    `/tracks?ids=${track.id}`,
    `/albums?ids=${album.id}`,
    `/artists?ids=${artist.id}`,
    '/browse/new-releases',
    `/users/${world.accounts[1]?.id}`,
  ];

  it.each(closed)('%s answers 403 Forbidden in Development Mode', async (url) => {
    const user = await (await testSandbox()).user({ mode: 'development' });

    const response = await user.get(url);

    expect(response.status).toBe(403);
    expect(response.body).toEqual(apiError(403, 'Forbidden'));
  });

  it("answers an artist's top tracks in Extended Quota Mode", async () => {
    const user = await (await testSandbox()).user();

    const body = await user.ok(`/artists/${artist.id}/top-tracks?market=SE`);

    expect(body.tracks.map((item: Json) => item.id)).toEqual(
      world.topTracks(artist.id).map(({ id }) => id),
    );
    expect(body.tracks[0]).toHaveProperty('popularity');
  });

  it('answers batch look-ups with null for unknown ids, in request order', async () => {
    const user = await (await testSandbox()).user();
    const other = someTrack(3);

    const tracks = await user.ok(`/tracks?ids=${track.id},${UNKNOWN_ID},${other.id},${track.id}`);
    expect(tracks.tracks.map((item: Json) => item?.id ?? null)).toEqual([
      track.id,
      null,
      other.id,
      track.id,
    ]);
    const albums = await user.ok(`/albums?ids=${UNKNOWN_ID},${album.id}`);
    expect(albums.albums[0]).toBeNull();
    expect(albums.albums[1]).toMatchObject({ id: album.id, label: album.label });
    const artists = await user.ok(`/artists?ids=${artist.id}`);
    expect(artists.artists[0]).toMatchObject({ id: artist.id, genres: artist.genres });
  });

  it('limits batches to 50 tracks or artists and 20 albums', async () => {
    const user = await (await testSandbox()).user();
    const ids = (count: number) => Array.from({ length: count }, () => track.id).join(',');

    expect((await user.get(`/tracks?ids=${ids(50)}`)).status).toBe(200);
    expect((await user.get(`/tracks?ids=${ids(51)}`)).body).toEqual(
      apiError(400, 'Too many ids requested'),
    );
    expect((await user.get(`/artists?ids=${ids(51)}`)).status).toBe(400);
    expect((await user.get(`/albums?ids=${ids(20)}`)).status).toBe(200);
    expect((await user.get(`/albums?ids=${ids(21)}`)).status).toBe(400);
    expect((await user.get(`/tracks?ids=${track.id},${MALFORMED_ID}`)).body).toEqual(
      apiError(400, 'Invalid base62 id'),
    );
    expect((await user.get('/tracks')).status).toBe(400);
  });

  it('lists new releases newest first, none after the clock', async () => {
    const sandbox = await testSandbox(Date.UTC(2024, 5, 1));
    const user = await sandbox.user();

    const page = await user.ok('/browse/new-releases?limit=50');

    const released = page.albums.items.map((item: Json) => world.album(item.id)?.releasedAt ?? 0);
    expect(released).toEqual([...released].sort((a, b) => b - a));
    expect(Math.max(...released)).toBeLessThanOrEqual(Date.UTC(2024, 5, 1));
    expect(page.albums.href).toBe(`${API_BASE}/browse/new-releases?offset=0&limit=50`);
  });

  it("answers another user's public profile in Extended Quota Mode", async () => {
    const user = await (await testSandbox()).user();
    const account = world.accounts[1];

    const body = await user.ok(`/users/${account?.id}`);

    expect(body).toEqual({
      display_name: account?.displayName,
      external_urls: { spotify: `https://open.spotify.com/user/${account?.id}` },
      followers: { href: null, total: account?.followers },
      href: `${API_BASE}/users/${account?.id}`,
      id: account?.id,
      images: [64, 300].map((size) => ({
        url: `${PUBLIC_URL}/images/avatars/${size}/${account?.id}`,
        height: size,
        width: size,
      })),
      type: 'user',
      uri: `spotify:user:${account?.id}`,
    });
    expect((await user.get('/users/nobody-here')).body).toEqual(
      apiError(404, 'Resource not found'),
    );
  });
});
