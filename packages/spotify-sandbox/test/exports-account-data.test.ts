import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_DATA_ROWS_PER_FILE,
  ACCOUNT_DATA_SPAN_MS,
  writeAccountDataZip,
  type AccountDataOptions,
} from '../src/exports/account-data';
import type { World } from '../src/world/model';
import { createWorld } from '../src/world/world';
import { Collect, readZip, type ZipEntry } from './exports-zip';

const ACCOUNT = 'jonasbrandt';
const AS_OF = Date.UTC(2026, 2, 1, 12);
const PUBLIC_URL = 'http://sandbox.test/sandbox';
const SMALL_FILES = [
  'Userdata.json',
  'Identity.json',
  'Identifiers.json',
  'Follow.json',
  'YourLibrary.json',
  'Playlist1.json',
];

type Row = Record<string, unknown>;

async function exportEntries(world: World, options: AccountDataOptions): Promise<ZipEntry[]> {
  const sink = new Collect();
  await writeAccountDataZip(world, ACCOUNT, options, sink);
  return readZip(sink.buffer());
}

function json<T = unknown>(entries: ZipEntry[], name: string): T {
  const entry = entries.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`no ${name} in ${entries.map((each) => each.name).join(', ')}`);
  return JSON.parse(entry.data.toString('utf8')) as T;
}

function series(entries: ZipEntry[], pattern: RegExp): Row[][] {
  return entries
    .filter((entry) => pattern.test(entry.name))
    .map((entry) => JSON.parse(entry.data.toString('utf8')) as Row[]);
}

function endTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

let world: World;

beforeAll(() => {
  world = createWorld();
});

describe('account data, current layout', () => {
  let entries: ZipEntry[];
  const folder = 'Spotify Account Data/';

  beforeAll(async () => {
    entries = await exportEntries(world, { asOfMs: AS_OF, publicUrl: PUBLIC_URL });
  }, 60_000);

  it('has the streaming history files and the small account files', () => {
    const names = entries.map((entry) => entry.name);
    expect(names[0]).toBe(folder);
    for (const name of SMALL_FILES) expect(names).toContain(folder + name);
    const history = names.filter((name) => name.includes('StreamingHistory'));
    expect(history).toContain(`${folder}StreamingHistory_music_0.json`);
    expect(history).toContain(`${folder}StreamingHistory_music_1.json`);
    expect(history).toContain(`${folder}StreamingHistory_podcast_0.json`);
    for (const name of history) {
      expect(name).toMatch(/StreamingHistory_(music|podcast|audiobook)_\d+\.json$/);
    }
  });

  it('covers the last year of music, as the world played it, 10,000 rows a file', () => {
    const files = series(entries, /StreamingHistory_music_\d+\.json$/);
    files.slice(0, -1).forEach((file) => expect(file).toHaveLength(ACCOUNT_DATA_ROWS_PER_FILE));
    const rows = files.flat();
    const plays = world.playsBetween(ACCOUNT, AS_OF - ACCOUNT_DATA_SPAN_MS, AS_OF);
    expect(rows).toHaveLength(plays.length);
    rows.forEach((row, index) => {
      const play = plays[index];
      if (!play) throw new Error('fewer plays than rows');
      const track = world.track(play.trackId);
      expect(Object.keys(row)).toEqual(['endTime', 'artistName', 'trackName', 'msPlayed']);
      expect(row).toEqual({
        endTime: endTime(play.playedAt),
        artistName: world.artist(track?.artistIds[0] ?? '')?.name,
        trackName: track?.name,
        msPlayed: play.msPlayed,
      });
    });
  });

  it('lists podcasts and audiobooks apart', () => {
    const podcasts = series(entries, /StreamingHistory_podcast_\d+\.json$/).flat();
    expect(podcasts.length).toBeGreaterThan(0);
    for (const row of podcasts) {
      expect(Object.keys(row)).toEqual(['endTime', 'podcastName', 'episodeName', 'msPlayed']);
      expect(row.endTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    }
    const books = series(entries, /StreamingHistory_audiobook_\d+\.json$/).flat();
    expect(books.length).toBeGreaterThan(0);
    for (const row of books) {
      expect(Object.keys(row)).toEqual([
        'endTime',
        'audiobookName',
        'chapterName',
        'authorName',
        'msPlayed',
      ]);
    }
  });

  it('prints the history as Spotify does and the small files with two-space JSON', () => {
    const music = entries.find((entry) => entry.name.endsWith('StreamingHistory_music_0.json'));
    const text = music?.data.toString('utf8') ?? '';
    expect(text.startsWith('[\n  {\n    "endTime" : "')).toBe(true);
    expect(text).toContain('",\n    "artistName" : "');
    expect(text).toContain('\n  },\n  {\n');
    expect(text.endsWith('\n  }\n]')).toBe(true);
    const library = entries.find((entry) => entry.name.endsWith('YourLibrary.json'));
    const libraryText = library?.data.toString('utf8') ?? '';
    expect(libraryText.startsWith('{\n  "tracks": [\n    {\n      "artist": ')).toBe(true);
    expect(libraryText).toContain('"bannedTracks": [\n  ]');
  });

  it('fills the account files from the world', () => {
    const account = world.account(ACCOUNT);
    if (!account) throw new Error('no account');
    expect(json(entries, `${folder}Userdata.json`)).toEqual({
      username: account.id,
      email: account.email,
      country: account.country,
      createdFromFacebook: false,
      facebookUid: null,
      birthdate: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
      gender: expect.any(String),
      postalCode: null,
      mobileNumber: null,
      mobileOperator: null,
      mobileBrand: null,
      creationTime: new Date(account.createdAt).toISOString().slice(0, 10),
    });
    expect(json(entries, `${folder}Identity.json`)).toEqual({
      displayName: account.displayName,
      firstName: '',
      lastName: '',
      imageUrl: `${PUBLIC_URL}/images/avatars/64/${account.id}`,
      largeImageUrl: `${PUBLIC_URL}/images/avatars/300/${account.id}`,
      tasteMaker: false,
      verified: false,
    });
    expect(json(entries, `${folder}Identifiers.json`)).toEqual({
      identifierType: 'email',
      identifierValue: account.email,
    });
    expect(json(entries, `${folder}Follow.json`)).toEqual({
      followerCount: account.followers,
      followingUsersCount: 0,
      dismissingUsersCount: 0,
    });

    const library = json<Record<string, { uri: string; name?: string }[]>>(
      entries,
      `${folder}YourLibrary.json`,
    );
    expect(Object.keys(library)).toEqual([
      'tracks',
      'albums',
      'shows',
      'episodes',
      'bannedTracks',
      'artists',
      'bannedArtists',
      'other',
    ]);
    expect(library.tracks?.map((track) => track.uri)).toEqual(
      world.savedTracks(ACCOUNT, AS_OF).map(({ trackId }) => `spotify:track:${trackId}`),
    );
    expect(library.artists?.map((artist) => artist.uri).sort()).toEqual(
      world
        .followedArtists(ACCOUNT, AS_OF)
        .map(({ artistId }) => `spotify:artist:${artistId}`)
        .sort(),
    );
    const artistNames = library.artists?.map((artist) => artist.name ?? '') ?? [];
    expect(artistNames).toEqual([...artistNames].sort());
    expect(library.shows?.length).toBeGreaterThan(0);

    const { playlists } = json<{ playlists: { name: string; items: unknown[] }[] }>(
      entries,
      `${folder}Playlist1.json`,
    );
    const owned = world.playlists.filter(
      (playlist) => playlist.ownerId === ACCOUNT && playlist.createdAt <= AS_OF,
    );
    expect(playlists.map((playlist) => playlist.name)).toEqual(owned.map((p) => p.name));
    playlists.forEach((playlist, index) => {
      expect(playlist.items).toHaveLength(
        world.playlistItems((owned[index] as (typeof owned)[number]).id, AS_OF).length,
      );
    });
  });
});

describe('account data, legacy layout', () => {
  let entries: ZipEntry[];

  beforeAll(async () => {
    entries = await exportEntries(world, { asOfMs: AS_OF, variant: 'legacy' });
  }, 60_000);

  it('puts music and podcasts together in MyData/StreamingHistory<N>.json', async () => {
    const names = entries.map((entry) => entry.name);
    expect(names[0]).toBe('MyData/');
    for (const name of SMALL_FILES) expect(names).toContain(`MyData/${name}`);
    const history = names.filter((name) => name.includes('StreamingHistory'));
    expect(history).toEqual(history.map((_name, index) => `MyData/StreamingHistory${index}.json`));

    const rows = series(entries, /StreamingHistory\d+\.json$/).flat();
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(['endTime', 'artistName', 'trackName', 'msPlayed']);
    }
    const current = await exportEntries(world, { asOfMs: AS_OF, variant: 'current' });
    const music = series(current, /_music_/).flat();
    const podcasts = series(current, /_podcast_/).flat();
    expect(rows).toHaveLength(music.length + podcasts.length);
    for (const podcast of podcasts) {
      expect(rows).toContainEqual({
        endTime: podcast.endTime,
        artistName: podcast.podcastName,
        trackName: podcast.episodeName,
        msPlayed: podcast.msPlayed,
      });
    }
  }, 60_000);

  it('is what an export made before October 2023 gets by default', async () => {
    const early = await exportEntries(world, { asOfMs: Date.UTC(2023, 4, 1) });
    expect(early.some((entry) => entry.name === 'MyData/StreamingHistory0.json')).toBe(true);
    expect(early.some((entry) => entry.name.includes('_music_'))).toBe(false);
  }, 60_000);
});
