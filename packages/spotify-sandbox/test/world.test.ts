import { describe, expect, it } from 'vitest';
import { upcCheckDigit } from '../src/world/catalogue/ids';
import { DEMO_FRIENDSHIPS } from '../src/world/demo-accounts';
import { ALL_GENRES } from '../src/world/genres';
import type { Album, Track, World } from '../src/world/model';
import { WORLD_REFERENCE_TIME } from '../src/world/people';
import { createWorld, DEFAULT_WORLD_SIZES } from '../src/world/world';

const world = createWorld();
const NOW = Date.UTC(2026, 10, 21, 12);
const YEAR_MS = 365.25 * 86_400_000;
const SMALL = { artists: 120, albums: 320, tracks: 3000, historyYears: 1 };

function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.id, item]));
}

function fingerprint(target: World) {
  const account = target.accounts[0]?.id ?? '';
  return {
    artists: target.artists.slice(0, 50),
    albums: target.albums.slice(0, 50),
    tracks: target.tracks.slice(0, 200),
    accounts: target.accounts,
    playlists: target.playlists,
    plays: target.playsBetween(account, NOW - 3 * 86_400_000, NOW),
    saved: target.savedTracks(account, NOW).slice(0, 20),
  };
}

describe('a world from a seed', () => {
  it('is the same for the same seed, even when generated again from scratch', () => {
    const first = fingerprint(createWorld({ seed: 11, sizes: SMALL }));
    // Push the first world's generated data out of the shared cache, so it is built anew.
    createWorld({ seed: 12, sizes: SMALL });
    createWorld({ seed: 13, sizes: SMALL });
    const again = fingerprint(createWorld({ seed: 11, sizes: SMALL }));

    expect(again).toEqual(first);
  });

  it('differs for another seed', () => {
    const one = createWorld({ seed: 21, sizes: SMALL });
    const other = createWorld({ seed: 22, sizes: SMALL });

    expect(other.artists.map((artist) => artist.name)).not.toEqual(
      one.artists.map((artist) => artist.name),
    );
    expect(other.tracks[0]?.id).not.toBe(one.tracks[0]?.id);
    const account = one.accounts[0]?.id ?? '';
    expect(other.playsBetween(account, NOW - 86_400_000, NOW)).not.toEqual(
      one.playsBetween(account, NOW - 86_400_000, NOW),
    );
  });

  it('has exactly the sizes asked for, by default about 1,500 artists, 4,000 albums, 40,000 tracks', () => {
    expect(world.artists).toHaveLength(DEFAULT_WORLD_SIZES.artists);
    expect(world.albums).toHaveLength(DEFAULT_WORLD_SIZES.albums);
    expect(world.tracks).toHaveLength(DEFAULT_WORLD_SIZES.tracks);
    const small = createWorld({ seed: 5, sizes: SMALL });
    expect([small.artists.length, small.albums.length, small.tracks.length]).toEqual([
      120, 320, 3000,
    ]);
  });

  it('rejects sizes that cannot make a catalogue', () => {
    expect(() => createWorld({ sizes: { artists: 0 } })).toThrow(RangeError);
    expect(() => createWorld({ seed: 3, sizes: { artists: 10, albums: 5, tracks: 50 } })).toThrow(
      /an album per artist/,
    );
    expect(() => createWorld({ sizes: { dailyPlaysScale: -1 } })).toThrow(RangeError);
  });
});

describe('the catalogue', () => {
  const artists = byId(world.artists);
  const albums = byId(world.albums);
  const tracks = byId(world.tracks);

  it('uses unique 22-character base62 ids', () => {
    const ids = [...world.artists, ...world.albums, ...world.tracks].map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{22}$/);
  });

  it('links every track to an existing album and artists, and every album to its tracks', () => {
    const problems: string[] = [];
    for (const track of world.tracks) {
      if (!albums.get(track.albumId)?.trackIds.includes(track.id))
        problems.push(`album of ${track.id}`);
      if (!track.artistIds.every((id) => artists.has(id))) problems.push(`artists of ${track.id}`);
      if (world.track(track.id) !== track) problems.push(`lookup of ${track.id}`);
    }
    for (const album of world.albums) {
      if (album.trackIds.length === 0) problems.push(`no tracks on ${album.id}`);
      const onAlbum = album.trackIds.map((id) => tracks.get(id) as Track);
      onAlbum.forEach((track, index) => {
        const previous = onAlbum[index - 1];
        const expected = previous?.discNumber === track.discNumber ? previous.trackNumber + 1 : 1;
        if (track.albumId !== album.id || track.trackNumber !== expected) {
          problems.push(`numbering on ${album.id}`);
        }
      });
      if (!album.artistIds.every((id) => artists.get(id)?.albumIds.includes(album.id))) {
        problems.push(`artists of ${album.id}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists an artist's releases oldest first", () => {
    for (const artist of world.artists) {
      expect(artist.albumIds.length).toBeGreaterThan(0);
      const dates = artist.albumIds.map((id) => albums.get(id)?.releasedAt ?? NaN);
      expect(dates).toEqual([...dates].sort((a, b) => a - b));
    }
  });

  it('reuses recordings: singles and their albums, remasters and compilations share ISRCs', () => {
    const byIsrc = new Map<string, Track[]>();
    for (const track of world.tracks)
      byIsrc.set(track.isrc, [...(byIsrc.get(track.isrc) ?? []), track]);
    const shared = [...byIsrc.values()].filter((versions) => versions.length > 1);
    expect(shared.length).toBeGreaterThan(1000);
    const kinds = new Set<string>();
    for (const versions of shared) {
      const first = versions[0] as Track;
      for (const version of versions) {
        expect(version.durationMs).toBe(first.durationMs);
        expect(version.artistIds[0]).toBe(first.artistIds[0]);
        const album = albums.get(version.albumId) as Album;
        kinds.add(album.kind);
        if (/Remaster/.test(album.name)) kinds.add('remaster');
      }
      expect(world.tracksByIsrc(first.isrc)).toHaveLength(versions.length);
    }
    expect([...kinds]).toEqual(
      expect.arrayContaining(['album', 'single', 'compilation', 'remaster']),
    );
  });

  it('has well-formed ISRCs, UPCs and release dates across six decades', () => {
    for (const track of world.tracks) expect(track.isrc).toMatch(/^[A-Z]{2}[A-Z][A-Z0-9]{2}\d{7}$/);
    for (const album of world.albums) {
      expect(album.upc).toMatch(/^\d{12}$/);
      expect(album.upc.slice(11)).toBe(upcCheckDigit(album.upc.slice(0, 11)));
      const pattern = { year: /^\d{4}$/, month: /^\d{4}-\d{2}$/, day: /^\d{4}-\d{2}-\d{2}$/ };
      expect(album.releaseDate).toMatch(pattern[album.releaseDatePrecision]);
      const missing = { year: '-01-01', month: '-01', day: '' }[album.releaseDatePrecision];
      expect(album.releasedAt).toBe(Date.parse(`${album.releaseDate}${missing}`));
      expect(album.label).not.toBe('');
      expect(album.copyrights.map((copyright) => copyright.type)).toEqual(['C', 'P']);
    }
    const years = world.albums.map((album) => Number(album.releaseDate.slice(0, 4)));
    expect(Math.min(...years)).toBeLessThanOrEqual(1970);
    expect(Math.max(...years)).toBe(2025);
    const precisions = new Set(world.albums.map((album) => album.releaseDatePrecision));
    expect(precisions).toEqual(new Set(['year', 'month', 'day']));
  });

  it('has albums, singles, EPs (reported as singles) and compilations', () => {
    const types = new Map<string, Set<string>>();
    for (const album of world.albums) {
      types.set(album.kind, (types.get(album.kind) ?? new Set()).add(album.albumType));
    }
    expect(Object.fromEntries([...types].map(([kind, reported]) => [kind, [...reported]]))).toEqual(
      {
        album: ['album'],
        single: ['single'],
        ep: ['single'],
        compilation: ['compilation'],
      },
    );
  });

  it('gives artists 1–3 real genres, followers and popularity', () => {
    expect(new Set(ALL_GENRES).size).toBe(ALL_GENRES.length);
    for (const artist of world.artists) {
      expect(artist.genres.length).toBeGreaterThanOrEqual(1);
      expect(artist.genres.length).toBeLessThanOrEqual(3);
      for (const genre of artist.genres) expect(ALL_GENRES).toContain(genre);
      expect(artist.popularity).toBeGreaterThanOrEqual(0);
      expect(artist.popularity).toBeLessThanOrEqual(100);
      expect(artist.followers).toBeGreaterThan(0);
    }
    expect(world.genres.length).toBeGreaterThan(150);
  });

  it('names things plausibly and variously', () => {
    const artistNames = world.artists.map((artist) => artist.name);
    expect(new Set(artistNames).size).toBe(artistNames.length);
    const trackNames = new Set(world.tracks.map((track) => track.name));
    expect(trackNames.size).toBeGreaterThan(world.tracks.length / 3);
    for (const name of [...artistNames, ...trackNames]) {
      expect(name.trim()).toBe(name);
      expect(name).toMatch(/\p{L}/u);
    }
    const explicitShare =
      world.tracks.filter((track) => track.explicit).length / world.tracks.length;
    expect(explicitShare).toBeGreaterThan(0.05);
    expect(explicitShare).toBeLessThan(0.5);
  });

  it("gives an artist's top tracks: ten, most popular first, one version of each song", () => {
    const artist = world.artists.find((candidate) => candidate.albumIds.length > 4);
    const top = world.topTracks(artist?.id ?? '');
    expect(top.length).toBe(10);
    expect(new Set(top.map((track) => track.isrc)).size).toBe(10);
    const popularity = top.map((track) => track.popularity);
    expect(popularity).toEqual([...popularity].sort((a, b) => b - a));
    expect(world.topTracks('nope')).toEqual([]);
  });
});

describe('the people', () => {
  it('are at least 12, mostly premium with at least two free accounts, the first six unchanged', () => {
    expect(world.accounts.length).toBeGreaterThanOrEqual(12);
    expect(
      world.accounts.filter((account) => account.product === 'free').length,
    ).toBeGreaterThanOrEqual(2);
    expect(
      world.accounts.filter((account) => account.product === 'premium').length,
    ).toBeGreaterThan(world.accounts.length / 2);
    expect(
      world.accounts
        .slice(0, 6)
        .map(({ id, displayName, email, product }) => [id, displayName, email, product]),
    ).toEqual([
      ['maralindqvist', 'Mara Lindqvist', 'mara.lindqvist@example.com', 'premium'],
      ['31kzt4wq7yv2jhd6ncx3bfrm5lpa', 'Tomás Ferreira', 'tomas.ferreira@example.com', 'premium'],
      ['11183207465', 'Aiko Tanaka', 'aiko.tanaka@example.com', 'free'],
      ['chidiokafor', 'Chidi Okafor', 'chidi.okafor@example.com', 'premium'],
      ['31ugbq6xn2r7cfy4d5kzsmhwtaoe', 'Priya Raman', 'priya.raman@example.com', 'free'],
      ['jonasbrandt', 'Jonas Brandt', 'jonas.brandt@example.com', 'premium'],
    ]);
    for (const account of world.accounts) {
      expect(account.email).toMatch(/^[a-z.]+@example\.com$/);
      expect(account.country).toMatch(/^[A-Z]{2}$/);
      expect(() => new Intl.DateTimeFormat('en', { timeZone: account.timeZone })).not.toThrow();
    }
  });

  it('each have a taste drawn from the catalogue', () => {
    for (const { taste } of world.accounts) {
      expect(taste.genres.length).toBeGreaterThanOrEqual(3);
      for (const genre of taste.genres) expect(world.genres).toContain(genre);
      expect(taste.favouriteArtistIds.length).toBeGreaterThanOrEqual(5);
      for (const id of taste.favouriteArtistIds) expect(world.artist(id)).toBeDefined();
      expect(taste.discoveryRate).toBeGreaterThan(0);
      expect(taste.discoveryRate).toBeLessThan(1);
      expect(taste.dailyPlays).toBeGreaterThan(0);
    }
  });

  it('have saved tracks added over years and followed artists', () => {
    for (const account of world.accounts) {
      const saved = world.savedTracks(account.id, NOW);
      expect(saved.length).toBeGreaterThan(100);
      const times = saved.map((item) => item.addedAt);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect((times[0] ?? 0) - (times[times.length - 1] ?? 0)).toBeGreaterThan(3 * YEAR_MS);
      expect(Math.min(...times)).toBeGreaterThanOrEqual(account.createdAt);
      for (const item of saved) expect(world.track(item.trackId)).toBeDefined();
      const followed = world.followedArtists(account.id, NOW);
      expect(followed.length).toBeGreaterThan(5);
      for (const item of followed) expect(world.artist(item.artistId)).toBeDefined();
    }
  });

  it('have playlists: public, private, collaborative, and others’ they follow', () => {
    const owners = new Set(world.playlists.map((playlist) => playlist.ownerId));
    expect(owners.size).toBe(world.accounts.length);
    expect(world.playlists.some((playlist) => playlist.public)).toBe(true);
    expect(world.playlists.some((playlist) => !playlist.public && !playlist.collaborative)).toBe(
      true,
    );
    const collaborative = world.playlists.filter((playlist) => playlist.collaborative);
    expect(collaborative.length).toBeGreaterThan(0);
    for (const playlist of collaborative) {
      expect(playlist.public).toBe(false);
      expect(new Set(playlist.items.map((item) => item.addedBy)).size).toBeGreaterThan(1);
    }
    let followingOthers = 0;
    for (const account of world.accounts) {
      const library = world.playlistsOf(account.id, NOW);
      expect(library.length).toBeGreaterThan(0);
      if (library.some((playlist) => playlist.ownerId !== account.id)) followingOthers++;
    }
    expect(followingOthers).toBe(world.accounts.length);
    for (const playlist of world.playlists) {
      expect(playlist.createdAt).toBeLessThanOrEqual(WORLD_REFERENCE_TIME);
      const added = playlist.items.map((item) => item.addedAt);
      expect(added).toEqual([...added].sort((a, b) => a - b));
      for (const item of playlist.items) {
        const track = world.track(item.trackId) as Track;
        expect(world.album(track.albumId)?.releasedAt).toBeLessThanOrEqual(item.addedAt);
      }
    }
  });

  it("shows a playlist's items as they were at a time", () => {
    const playlist = world.playlists.find((candidate) => candidate.items.length > 10);
    const middle = playlist?.items[5]?.addedAt ?? 0;
    const then = world.playlistItems(playlist?.id ?? '', middle);
    expect(then.length).toBeGreaterThanOrEqual(6);
    expect(then.length).toBeLessThan(playlist?.items.length ?? 0);
    expect(world.playlistItems(playlist?.id ?? '', NOW)).toEqual(playlist?.items);
    expect(world.playlistItems('unknown', NOW)).toEqual([]);
  });

  it('have a demo social graph between existing accounts', () => {
    const ids = new Set(world.accounts.map((account) => account.id));
    const pairs = new Set<string>();
    for (const { from, to, state } of DEMO_FRIENDSHIPS) {
      expect(ids.has(from) && ids.has(to) && from !== to).toBe(true);
      expect(['accepted', 'pending']).toContain(state);
      const pair = [from, to].sort().join(' ');
      expect(pairs.has(pair)).toBe(false);
      pairs.add(pair);
    }
    for (const id of ids) {
      const accepted = DEMO_FRIENDSHIPS.some(
        (friendship) =>
          friendship.state === 'accepted' && (friendship.from === id || friendship.to === id),
      );
      expect(accepted).toBe(true);
    }
    expect(DEMO_FRIENDSHIPS.some((friendship) => friendship.state === 'pending')).toBe(true);
  });
});

describe('library changes through the API', () => {
  it('save and remove tracks on top of the generated library, at the time they happen', () => {
    const changed = createWorld();
    const account = changed.accounts[1]?.id ?? '';
    const before = changed.savedTracks(account, NOW);
    const existing = before[0]?.trackId ?? '';
    const fresh = changed.tracks.find((track) => !before.some((item) => item.trackId === track.id));

    changed.saveTracks(account, [fresh?.id ?? ''], NOW + 1000);
    changed.removeSavedTracks(account, [existing], NOW + 2000);

    expect(changed.savedTracks(account, NOW)).toEqual(before);
    const after = changed.savedTracks(account, NOW + 2000);
    expect(after[0]).toEqual({ trackId: fresh?.id, addedAt: NOW + 1000 });
    expect(after.some((item) => item.trackId === existing)).toBe(false);
    expect(after).toHaveLength(before.length);
    // Each world has its own changes.
    expect(createWorld().savedTracks(account, NOW + 2000)[0]?.trackId).not.toBe(fresh?.id);
  });

  it('keep the first date when a saved track is saved again', () => {
    const changed = createWorld();
    const account = changed.accounts[2]?.id ?? '';
    const [first] = changed.savedTracks(account, NOW);
    changed.saveTracks(account, [first?.trackId ?? ''], NOW + 5000);
    expect(changed.savedTracks(account, NOW + 5000)[0]).toEqual(first);
  });

  it('follow and unfollow artists', () => {
    const changed = createWorld();
    const account = changed.accounts[3]?.id ?? '';
    const before = changed.followedArtists(account, NOW);
    const artist = changed.artists.find(
      (candidate) => !before.some((item) => item.artistId === candidate.id),
    );
    changed.follow(account, [artist?.id ?? ''], NOW + 10);
    expect(changed.followedArtists(account, NOW + 10)[0]).toEqual({
      artistId: artist?.id,
      followedAt: NOW + 10,
    });
    changed.unfollow(account, [artist?.id ?? '', before[0]?.artistId ?? ''], NOW + 20);
    expect(changed.followedArtists(account, NOW + 20)).toHaveLength(before.length - 1);
  });

  it('refuse unknown accounts, tracks and artists', () => {
    const changed = createWorld();
    expect(() => changed.saveTracks('nobody', [changed.tracks[0]?.id ?? ''], NOW)).toThrow(
      RangeError,
    );
    expect(() => changed.saveTracks('maralindqvist', ['0000000000000000000000'], NOW)).toThrow(
      RangeError,
    );
    expect(() => changed.follow('maralindqvist', ['0000000000000000000000'], NOW)).toThrow(
      RangeError,
    );
  });
});
