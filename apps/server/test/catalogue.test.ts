import { SandboxClock } from '@earshot/spotify-sandbox/clock';
import type { World } from '@earshot/spotify-sandbox/world/model';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AlbumDetail,
  ArtistAlbums,
  ArtistDetail,
  ArtistTracks,
  PlaylistDetail,
  PlaylistList,
  TrackDetail,
} from '@earshot/contract/catalogue';
import type { ErrorBody } from '@earshot/contract/errors';
import { albums } from '../src/db/schema/catalog';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import type { Database } from '../src/db/client';
import { storeTracks } from '../src/services/catalog';
import { albumDetail, artistAlbums, artistDetail } from '../src/services/catalogue-pages';
import type { PageViewer } from '../src/services/catalogue-viewer';
import type { SpotifyClient } from '../src/spotify/client';
import type { SimplifiedAlbum, SpotifyTrack } from '../src/spotify/schemas';
import { freshDatabase } from './support/database';
import { startHarness, type Harness, type Viewer } from './support/harness';

const world: World = createWorld();
const clock = new SandboxClock({ frozen: true });
const MARA = 'maralindqvist';
const TOMAS = '31kzt4wq7yv2jhd6ncx3bfrm5lpa';

/** An artist with several releases of its own, and one of them. */
const artist = world.artists.find((candidate) => candidate.albumIds.length >= 3)!;
const album = world.album(artist.albumIds.at(-1)!)!;
const playlistsOf = (account: string) => world.playlistsOf(account, clock.now());
const privatePlaylist = playlistsOf(MARA).find((p) => p.ownerId === MARA && !p.public)!;
const othersPublicPlaylist = playlistsOf(MARA).find((p) => p.ownerId !== MARA && p.public)!;

function get(harness: Harness, url: string, viewer?: Viewer) {
  return harness.app.inject({ url, headers: viewer ? { cookie: viewer.cookie } : {} });
}

/** Calls Earshot made to Spotify's catalogue (not the viewer's own library or player). */
async function catalogueCalls(harness: Harness): Promise<number> {
  const { values } = await harness.metrics.spotifyRequests.get();
  return values
    .filter((value) => !String(value.labels.endpoint).startsWith('GET /me'))
    .reduce((sum, value) => sum + value.value, 0);
}

/** A listener opens the page first, which stores it: each test stands alone, in any order. */
async function openedBy(harness: Harness, viewer: Viewer, url: string) {
  expect((await get(harness, url, viewer)).statusCode).toBe(200);
}

const lantern = { id: 'lanternArtist01', name: 'The Lanterns' };
const moth = { id: 'mothArtist01', name: 'Moth Choir' };
function fixture(id: string, name: string, albumId: string, by = lantern, isrc?: string) {
  return {
    id,
    name,
    album: { id: albumId, name: `${name} LP`, artists: [by], images: [] },
    artists: [by],
    duration_ms: 200_000,
    ...(isrc && { external_ids: { isrc } }),
  } satisfies SpotifyTrack;
}

describe('catalogue pages, Extended Quota Mode', () => {
  let harness: Harness;
  let mara: Viewer;
  let tomas: Viewer;

  beforeAll(async () => {
    harness = await startHarness({ sandbox: { world, clock } });
    mara = await harness.signIn(MARA);
    tomas = await harness.signIn(TOMAS);
    await harness.befriend(mara, tomas);
  });
  afterAll(() => harness.close());

  it('answers 404 with the entity texts for ids neither Earshot nor Spotify knows', async () => {
    const unknown = 'zzzzzzzzzzzzzzzzzzzzzz';
    for (const [path, detail] of [
      ['artist', 'Artist not found'],
      ['track', 'Track not found'],
      ['album', 'Album not found'],
      ['playlist', 'Playlist not found'],
    ]) {
      for (const viewer of [undefined, mara]) {
        const answer = await get(harness, `/api/${path}/${unknown}`, viewer);
        expect(answer.statusCode, path).toBe(404);
        expect(answer.json()).toEqual({ detail });
      }
    }
    expect((await get(harness, `/api/artist/${unknown}/tracks`)).statusCode).toBe(404);
    expect((await get(harness, '/api/track/bad%00id')).statusCode).toBe(400);
  });

  it('fills an artist from Spotify for a logged-in viewer, with the personal fields', async () => {
    const answer = await get(harness, `/api/artist/${artist.id}`, mara);
    expect(answer.statusCode).toBe(200);
    const body = answer.json<ArtistDetail>();
    const followed = world
      .followedArtists(MARA, clock.now())
      .some((follow) => follow.artistId === artist.id);
    expect(body).toMatchObject({
      id: artist.id,
      name: artist.name,
      genres: [...artist.genres],
      followers: artist.followers,
      popularity: artist.popularity,
      is_followed: followed,
      user_liked_tracks: 0,
      listening: { play_count: 0, friends: [] },
    });
    expect(body.album_count).toBeGreaterThanOrEqual(artist.albumIds.length);
  });

  it('shows visitors the stored artist without personal fields', async () => {
    await openedBy(harness, mara, `/api/artist/${artist.id}`);
    const body = (await get(harness, `/api/artist/${artist.id}`)).json<ArtistDetail>();
    expect(body).toMatchObject({
      name: artist.name,
      is_followed: null,
      user_liked_tracks: null,
      listening: null,
    });
  });

  it('fills nothing for visitors without a token of its own (a client with no secret)', async () => {
    expect(harness.spotify.appToken).toBeNull();
    const storedIds = new Set(
      (await harness.database.db.select({ id: albums.id }).from(albums)).map((row) => row.id),
    );
    const unopened = world.albums.find((candidate) => !storedIds.has(candidate.id))!;
    const answer = await get(harness, `/api/album/${unopened.id}`);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ detail: 'Album not found' });
  });

  it("lists the artist's releases newest first", async () => {
    await openedBy(harness, mara, `/api/artist/${artist.id}`);
    const body = (await get(harness, `/api/artist/${artist.id}/albums`)).json<ArtistAlbums>();
    expect(body.notice).toBeNull();
    for (const id of artist.albumIds) expect(body.items.map((item) => item.id)).toContain(id);
    const dates = body.items.map((item) => item.release_date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('reads an album with its tracks in order, then lists them on the artist', async () => {
    const answer = await get(harness, `/api/album/${album.id}`, mara);
    expect(answer.statusCode).toBe(200);
    const body = answer.json<AlbumDetail>();
    expect(body.name).toBe(album.name);
    expect(body.album_artists.map((credit) => credit.id)).toEqual([...album.artistIds]);
    expect(body.tracks.map((entry) => entry.track.id)).toEqual([...album.trackIds]);
    expect(body.tracks[0]).toMatchObject({ liked: false, play_count: 0 });

    const anonymous = (await get(harness, `/api/album/${album.id}`)).json<AlbumDetail>();
    expect(anonymous.tracks[0]).toMatchObject({ liked: null, play_count: null });

    const tracks = (
      await get(harness, `/api/artist/${artist.id}/tracks`, mara)
    ).json<ArtistTracks>();
    const credited = album.trackIds.filter((id) => world.track(id)?.artistIds.includes(artist.id));
    for (const id of credited) expect(tracks.items.map((item) => item.track.id)).toContain(id);
  });

  it('answers a track with versions, likes, similar tracks and who plays it', async () => {
    const db = harness.database.db;
    await storeTracks(db, [
      fixture('lanternSong1', 'Harbour', 'lanternAlbum1', lantern, 'ISRC0000001'),
      fixture('lanternSong1b', 'Harbour', 'lanternAlbum2', lantern, 'ISRC0000001'),
      fixture('lanternSong2', 'Tideline', 'lanternAlbum1'),
      fixture('mothSong1', 'Dust', 'mothAlbum1', moth),
      fixture('lonelySong1', 'Elsewhere', 'lonelyAlbum1', moth),
    ]);
    const at = (iso: string) => new Date(iso);
    await db.insert(plays).values([
      {
        userId: mara.id,
        trackId: 'lanternSong1',
        playedAt: at('2026-01-01T10:00:00Z'),
        source: 'api',
      },
      {
        userId: mara.id,
        trackId: 'lanternSong2',
        playedAt: at('2026-01-01T10:05:00Z'),
        source: 'api',
      },
      {
        userId: mara.id,
        trackId: 'mothSong1',
        playedAt: at('2026-01-01T10:10:00Z'),
        source: 'api',
      },
      {
        userId: tomas.id,
        trackId: 'lanternSong1b',
        playedAt: at('2026-01-02T10:00:00Z'),
        source: 'api',
      },
      {
        userId: tomas.id,
        trackId: 'lanternSong1',
        playedAt: at('2026-01-02T12:00:00Z'),
        source: 'api',
      },
      {
        userId: tomas.id,
        trackId: 'lanternSong2',
        playedAt: at('2026-01-02T12:30:00Z'),
        source: 'api',
      },
      {
        userId: tomas.id,
        trackId: 'lonelySong1',
        playedAt: at('2026-01-09T12:30:00Z'),
        source: 'api',
      },
    ]);
    await db
      .insert(savedTracks)
      .values([
        { userId: tomas.id, trackId: 'lanternSong1b', addedAt: at('2026-01-02T00:00:00Z') },
      ]);

    const body = (await get(harness, '/api/track/lanternSong1', mara)).json<TrackDetail>();
    expect(body.track.title).toBe('Harbour');
    expect(body.total_likes).toBe(1);
    expect(body.liked).toBe(false);
    expect(body.album_artists.map((credit) => credit.id)).toEqual([lantern.id]);
    expect(body.other_versions.map((version) => version.id)).toEqual(['lanternSong1b']);
    // Both played Tideline around it, only Mara played Dust; nobody played Elsewhere near it.
    expect(body.similar_tracks.map((track) => track.id)).toEqual(['lanternSong2', 'mothSong1']);
    expect(body.listening!.play_count).toBe(1);
    expect(body.listening!.friends).toMatchObject([{ play_count: 2 }]);

    const anonymous = (await get(harness, '/api/track/lanternSong1')).json<TrackDetail>();
    expect(anonymous).toMatchObject({ liked: null, listening: null, total_likes: 1 });

    // The viewer's ignores leave the similar tracks.
    await harness.app.inject({
      method: 'POST',
      url: `/api/ignore/artist/${moth.id}`,
      headers: { cookie: mara.cookie },
    });
    const ignoring = (await get(harness, '/api/track/lanternSong1', mara)).json<TrackDetail>();
    expect(ignoring.similar_tracks.map((track) => track.id)).toEqual(['lanternSong2']);

    // A song's neighbours are kept a while: a play since does not move them yet.
    await db.insert(plays).values({
      userId: tomas.id,
      trackId: 'lonelySong1',
      playedAt: at('2026-01-02T12:10:00Z'),
      source: 'api',
    });
    const kept = (await get(harness, '/api/track/lanternSong1', tomas)).json<TrackDetail>();
    expect(kept.similar_tracks.map((track) => track.id)).toEqual(['lanternSong2', 'mothSong1']);

    const lanternPage = (
      await get(harness, `/api/artist/${lantern.id}`, tomas)
    ).json<ArtistDetail>();
    expect(lanternPage).toMatchObject({ track_count: 2, user_liked_tracks: 1 });
    expect(lanternPage.listening).toMatchObject({ play_count: 3 });
  });

  it('asks Spotify nothing for pages it stored lately', async () => {
    const track = album.trackIds[0]!;
    const pages = [
      `/api/artist/${artist.id}`,
      `/api/artist/${artist.id}/albums`,
      `/api/album/${album.id}`,
      `/api/track/${track}`,
    ];
    for (const page of pages) await openedBy(harness, mara, page);
    const before = await catalogueCalls(harness);
    for (const page of pages) await openedBy(harness, mara, page);
    expect(await catalogueCalls(harness)).toBe(before);
  });

  it('serves stale pages as stored when Spotify fails, and fails what it never stored', async () => {
    const db = harness.database.db;
    const track = album.trackIds[0]!;
    for (const page of [`/api/artist/${artist.id}`, `/api/album/${album.id}`]) {
      await openedBy(harness, mara, page);
    }
    await db.execute(sql`UPDATE artists SET enriched_at = now() - interval '8 days',
      albums_fetched_at = now() - interval '2 days' WHERE id = ${artist.id}`);
    await db.execute(
      sql`UPDATE albums SET tracks_fetched_at = now() - interval '31 days' WHERE id = ${album.id}`,
    );
    await db.execute(sql`UPDATE tracks SET enriched_at = NULL WHERE id = ${track}`);
    await harness.control('PUT', '/faults', {
      seed: 1,
      rules: [{ type: 'server-error', rate: 1, path: '/v1/' }],
    });
    try {
      const artistPage = await get(harness, `/api/artist/${artist.id}`, mara);
      expect(artistPage.statusCode).toBe(200);
      expect(artistPage.json<ArtistDetail>()).toMatchObject({
        name: artist.name,
        is_followed: null,
      });
      const releases = (
        await get(harness, `/api/artist/${artist.id}/albums`, mara)
      ).json<ArtistAlbums>();
      expect(releases.notice).toMatch(/^Showing what Earshot has stored: Spotify could not answer/);
      const albumPage = await get(harness, `/api/album/${album.id}`, mara);
      expect(albumPage.statusCode).toBe(200);
      expect(albumPage.json<AlbumDetail>().notice).toMatch(
        /^Showing what Earshot has stored: Spotify could not answer/,
      );
      expect((await get(harness, `/api/track/${track}`, mara)).statusCode).toBe(200);
      const storedArtists = new Set(
        (await db.execute<{ id: string }>(sql`SELECT id FROM artists`)).rows.map((row) => row.id),
      );
      const unopened = world.artists.find((candidate) => !storedArtists.has(candidate.id))!;
      expect((await get(harness, `/api/artist/${unopened.id}`, mara)).statusCode).toBe(502);
      const storedTracks = new Set(
        (await db.execute<{ id: string }>(sql`SELECT id FROM tracks`)).rows.map((row) => row.id),
      );
      const unheard = world.tracks.find((candidate) => !storedTracks.has(candidate.id))!;
      expect((await get(harness, `/api/track/${unheard.id}`, mara)).statusCode).toBe(502);
    } finally {
      await harness.control('DELETE', '/faults');
    }
  });

  it('says whether the viewer follows an artist from their library once synced', async () => {
    const aiko = await harness.signIn('11183207465');
    const db = harness.database.db;
    await openedBy(harness, aiko, `/api/artist/${artist.id}`);
    const followState = async () =>
      (await get(harness, `/api/artist/${artist.id}`, aiko)).json<ArtistDetail>().is_followed;
    await db.execute(
      sql`UPDATE spotify_accounts SET library_synced_at = now() WHERE user_id = ${aiko.id}`,
    );
    await db.execute(sql`DELETE FROM followed_artists WHERE user_id = ${aiko.id}`);
    expect(await followState()).toBe(false);
    await db.execute(
      sql`INSERT INTO followed_artists (user_id, artist_id) VALUES (${aiko.id}, ${artist.id})`,
    );
    expect(await followState()).toBe(true);
    // Never synced and disconnected from Spotify: no one can say.
    await db.execute(sql`UPDATE spotify_accounts SET library_synced_at = NULL, status = 'revoked'
      WHERE user_id = ${aiko.id}`);
    expect(await followState()).toBeNull();
  });

  it("lists an artist's tracks to visitors, and 404 for an artist never opened", async () => {
    await openedBy(harness, mara, `/api/artist/${artist.id}`);
    const answer = await get(harness, `/api/artist/${artist.id}/tracks`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json<ArtistTracks>().items.every((item) => item.liked === null)).toBe(true);
    const unknown = await get(harness, '/api/artist/zzzzzzzzzzzzzzzzzzzzzz/tracks');
    expect(unknown.json()).toEqual({ detail: 'Artist not found' });
  });

  it('answers a track stored without an album, with no album artists', async () => {
    await harness.database.db.execute(sql`INSERT INTO tracks (id, uid, name, title_key, enriched_at)
      VALUES ('albumlessSong1', 'albumlessSong1', 'Albumless', 'albumless', now())
      ON CONFLICT DO NOTHING`);
    const answer = await get(harness, '/api/track/albumlessSong1', mara);
    expect(answer.statusCode).toBe(200);
    expect(answer.json<TrackDetail>()).toMatchObject({ album_artists: [], other_versions: [] });
  });

  it("lists a track's other versions in id order", async () => {
    const db = harness.database.db;
    for (const id of ['versionSong1', 'versionSong3', 'versionSong2']) {
      await storeTracks(db, [fixture(id, 'Versions', `${id}Album`, moth, 'ISRC0000009')]);
    }
    const body = (await get(harness, '/api/track/versionSong1', mara)).json<TrackDetail>();
    expect(body.other_versions.map((version) => version.id)).toEqual([
      'versionSong2',
      'versionSong3',
    ]);
  });

  it('keeps private playlists to their owner and collaborators', async () => {
    const own = await get(harness, `/api/playlist/${privatePlaylist.id}`, mara);
    expect(own.statusCode).toBe(200);
    const body = own.json<PlaylistDetail>();
    // Stored a while ago: the next opening asks Spotify whether it changed.
    await harness.database.db.execute(
      sql`UPDATE playlists SET updated_at = now() - interval '1 day' WHERE id = ${privatePlaylist.id}`,
    );
    expect(body).toMatchObject({ is_owner: true, is_public: false });
    expect(body.tracks).toHaveLength(world.playlistItems(privatePlaylist.id, clock.now()).length);
    // Opened again: from what is stored, brought up to date with Spotify.
    const again = await get(harness, `/api/playlist/${privatePlaylist.id}`, mara);
    expect(again.json<PlaylistDetail>().tracks).toEqual(body.tracks);
    for (const viewer of [tomas, undefined]) {
      const refused = await get(harness, `/api/playlist/${privatePlaylist.id}`, viewer);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: 'This playlist is private' });
    }
  });

  it("lists the viewer's playlists and refuses visitors", async () => {
    expect((await get(harness, '/api/spotify/playlists')).statusCode).toBe(401);
    const body = (await get(harness, '/api/spotify/playlists', mara)).json<PlaylistList>();
    expect(body.items.map((item) => item.id)).toEqual(playlistsOf(MARA).map((p) => p.id));
    expect(body.total).toBe(playlistsOf(MARA).length);
  });

  it('follows and unfollows on Spotify; a Spotify failure changes nothing', async () => {
    const follow = (method: 'PUT' | 'DELETE', viewer?: Viewer) =>
      harness.app.inject({
        method,
        url: `/api/spotify/follow/artist/${artist.id}`,
        headers: viewer ? { cookie: viewer.cookie } : {},
      });
    await openedBy(harness, tomas, `/api/artist/${artist.id}`);
    expect((await follow('PUT')).statusCode).toBe(401);
    expect((await follow('PUT', tomas)).json()).toEqual({
      artist_id: artist.id,
      is_followed: true,
    });
    const follows = () =>
      world.followedArtists(TOMAS, clock.now()).some((f) => f.artistId === artist.id);
    expect(follows()).toBe(true);
    expect((await get(harness, `/api/artist/${artist.id}`, tomas)).json()).toMatchObject({
      is_followed: true,
    });

    await harness.control('PUT', '/faults', {
      seed: 1,
      rules: [{ type: 'server-error', rate: 1, path: '/v1/me/following' }],
    });
    const failed = await follow('DELETE', tomas);
    await harness.control('DELETE', '/faults');
    expect(failed.statusCode).toBe(502);
    expect(failed.json<ErrorBody>().detail).toMatch(/^Spotify could not unfollow the artist: /);
    expect(follows()).toBe(true);
    expect((await follow('DELETE', tomas)).json()).toMatchObject({ is_followed: false });
    expect(follows()).toBe(false);
  });

  it('serves what is stored when Spotify fails, and says so when nothing is', async () => {
    await openedBy(harness, tomas, `/api/album/${album.id}`);
    await harness.control('PUT', '/faults', {
      seed: 1,
      rules: [{ type: 'server-error', rate: 1, path: '/v1/' }],
    });
    try {
      const stored = await get(harness, `/api/album/${album.id}`, tomas);
      expect(stored.statusCode).toBe(200);
      const storedIds = new Set(
        (await harness.database.db.select({ id: albums.id }).from(albums)).map((row) => row.id),
      );
      const other = world.albums.find((candidate) => !storedIds.has(candidate.id))!;
      const missing = await get(harness, `/api/album/${other.id}`, tomas);
      expect(missing.statusCode).toBe(502);
      expect(missing.json<ErrorBody>().detail).toMatch(/^Spotify could not answer/);
    } finally {
      await harness.control('DELETE', '/faults');
    }
  });
});

describe('catalogue pages, Development Mode', () => {
  let harness: Harness;
  let mara: Viewer;

  beforeAll(async () => {
    harness = await startHarness({ mode: 'development', sandbox: { world, clock } });
    mara = await harness.signIn(MARA);
  });
  afterAll(() => harness.close());

  it('shows what the mode gives: no genres, followers or popularity, all releases', async () => {
    const body = (await get(harness, `/api/artist/${artist.id}`, mara)).json<ArtistDetail>();
    expect(body).toMatchObject({
      name: artist.name,
      genres: [],
      followers: null,
      popularity: null,
    });
    expect(typeof body.is_followed).toBe('boolean');
    const albums = (
      await get(harness, `/api/artist/${artist.id}/albums`, mara)
    ).json<ArtistAlbums>();
    for (const id of artist.albumIds) expect(albums.items.map((item) => item.id)).toContain(id);
    const albumPage = (await get(harness, `/api/album/${album.id}`, mara)).json<AlbumDetail>();
    expect(albumPage.tracks).toHaveLength(album.trackIds.length);
  });

  it("lists others' playlists' tracks only where Spotify allows, and says why", async () => {
    const others = (
      await get(harness, `/api/playlist/${othersPublicPlaylist.id}`, mara)
    ).json<PlaylistDetail>();
    expect(others).toMatchObject({
      tracks: [],
      is_owner: false,
      notice: "Spotify shows this playlist's tracks only to its owner and collaborators.",
    });
    const own = (
      await get(harness, `/api/playlist/${privatePlaylist.id}`, mara)
    ).json<PlaylistDetail>();
    expect(own.notice).toBeNull();
    expect(own.tracks.length).toBeGreaterThan(0);
  });

  it('follows through the library endpoint of the mode', async () => {
    await openedBy(harness, mara, `/api/artist/${artist.id}`);
    const answer = await harness.app.inject({
      method: 'PUT',
      url: `/api/spotify/follow/artist/${artist.id}`,
      headers: { cookie: mara.cookie },
    });
    expect(answer.json()).toEqual({ artist_id: artist.id, is_followed: true });
    expect(world.followedArtists(MARA, clock.now()).some((f) => f.artistId === artist.id)).toBe(
      true,
    );
  });
});

/**
 * The sandbox's world has no discography or album longer than one page of Spotify's: a scripted
 * client answers these pages, read by the services directly.
 */
describe('catalogue pages, read in pages from Spotify', () => {
  let database: Database;
  const viewer: PageViewer = {
    user: null,
    spotify: { accessToken: async () => 'token', renewedAccessToken: async () => 'token' },
  };
  const release = (id: string, releaseDate: string): SimplifiedAlbum => ({
    id,
    name: `Release ${id}`,
    release_date: releaseDate,
    artists: [lantern],
  });

  beforeAll(async () => {
    database = await freshDatabase();
    await storeTracks(database.db, [fixture('pagedSong1', 'Paged', 'pagedAlbum1')]);
  });
  afterAll(() => database.close());

  it("reads an artist's releases page after page, at most 20 pages", async () => {
    await database.db.execute(
      sql`UPDATE artists SET albums_fetched_at = NULL WHERE id = ${lantern.id}`,
    );
    const asked: (string | undefined)[] = [];
    const spotify = {
      artistAlbums: async (_auth: unknown, _id: string, next?: string) => {
        asked.push(next);
        const page = next === undefined ? 0 : Number(next);
        return {
          items: [release(`pagedRelease${String(page).padStart(2, '0')}`, `2000-01-${page + 1}`)],
          next: String(page + 1),
        };
      },
    } as unknown as SpotifyClient;
    const body = await artistAlbums(database.db, spotify, viewer, lantern.id);
    expect(asked).toEqual([undefined, ...Array.from({ length: 19 }, (_, i) => String(i + 1))]);
    expect(body.items.filter((item) => item.id.startsWith('pagedRelease'))).toHaveLength(20);
  });

  it('reads every page of an album’s tracks', async () => {
    const albumTrack = (id: string, trackNumber: number) => ({
      id,
      name: `Song ${id}`,
      artists: [lantern],
      duration_ms: 200_000,
      track_number: trackNumber,
    });
    const spotify = {
      albums: async () => [
        {
          ...release('longAlbum1', '2001-01-01'),
          tracks: { items: [albumTrack('longSong1', 1)], next: 'page-2' },
        },
      ],
      albumTracks: async (_auth: unknown, next: string) =>
        next === 'page-2'
          ? { items: [albumTrack('longSong2', 2)], next: 'page-3' }
          : { items: [albumTrack('longSong3', 3)], next: null },
    } as unknown as SpotifyClient;
    const body = await albumDetail(database.db, spotify, viewer, 'longAlbum1');
    expect(body.tracks.map((entry) => entry.track.id)).toEqual([
      'longSong1',
      'longSong2',
      'longSong3',
    ]);
  });

  it('stores an album Spotify lists without tracks', async () => {
    const spotify = {
      albums: async () => [
        { ...release('emptyAlbum1', '2002-01-01'), tracks: { items: [], next: null } },
      ],
    } as unknown as SpotifyClient;
    const body = await albumDetail(database.db, spotify, viewer, 'emptyAlbum1');
    expect(body).toMatchObject({ id: 'emptyAlbum1', name: 'Release emptyAlbum1', tracks: [] });
  });

  it('lets a failure other than Spotify’s through', async () => {
    const user = { id: '00000000-0000-4000-8000-000000000001' } as PageViewer['user'];
    const db = database.db;
    await db.execute(sql`INSERT INTO users (id, spotify_id, username, name)
      VALUES (${user!.id}, 'pagedviewer', 'pagedviewer', 'Paged Viewer') ON CONFLICT DO NOTHING`);
    await db.execute(sql`INSERT INTO spotify_accounts (user_id, access_token_encrypted,
        refresh_token_encrypted, access_token_expires_at, scopes, status)
      VALUES (${user!.id}, 'x', 'x', now(), '', 'active') ON CONFLICT DO NOTHING`);
    // Stored lately: only whether the viewer follows the artist is asked of Spotify.
    await db.execute(sql`UPDATE artists SET enriched_at = now(), albums_fetched_at = now()
      WHERE id = ${lantern.id}`);
    const spotify = {
      artistFollowed: async () => {
        throw new Error('a bug');
      },
    } as unknown as SpotifyClient;
    await expect(
      artistDetail(database.db, spotify, { ...viewer, user }, lantern.id),
    ).rejects.toThrow('a bug');
  });
});
