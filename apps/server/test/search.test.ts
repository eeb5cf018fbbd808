import type { ErrorBody } from '@earshot/contract/errors';
import type { SearchResults } from '@earshot/contract/search';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plays } from '../src/db/schema/listening';
import { friendships } from '../src/db/schema/social';
import { users } from '../src/db/schema/users';
import { storeArtists, storeTracks } from '../src/services/catalog';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { startHarness, type Harness, type Viewer } from './support/harness';

const lanterns = { id: 'artistL0000000000000001', name: 'The Lanterns' };
const bjork = { id: 'artistB0000000000000001', name: 'Björk' };
const arcade = { id: 'artistA0000000000000001', name: 'Love Arcade' };

function track(id: string, name: string, album: string, artist = lanterns): SpotifyTrack {
  return {
    id,
    name,
    album: {
      id: `al-${album.toLowerCase().replace(/\W+/g, '-')}`,
      name: album,
      artists: [artist],
      images: [{ url: `https://i.scdn.co/image/${id}`, width: 300 }],
    },
    artists: [artist],
    duration_ms: 180_000,
  };
}

async function search(harness: Harness, query: string, viewer?: Viewer) {
  return harness.app.inject({
    url: `/api/search?${query}`,
    headers: viewer ? { cookie: viewer.cookie } : {},
  });
}

async function results(harness: Harness, query: string, viewer?: Viewer) {
  const response = await search(harness, query, viewer);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SearchResults>();
}

const titles = (answer: SearchResults) => answer.tracks.map((result) => result.data.track.title);

describe('GET /api/search on the stored catalogue', () => {
  let harness: Harness;
  let mara: Viewer;
  let tomas: Viewer;
  let aiko: Viewer;

  beforeAll(async () => {
    harness = await startHarness();
    mara = await harness.signIn('maralindqvist');
    tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
    aiko = await harness.signIn('11183207465');
    const db = harness.database.db;
    await storeTracks(db, [
      track('tr-only-love', 'Only Love', 'Quiet Rooms'),
      track('tr-lovely', 'Lovely Day', 'Quiet Rooms'),
      track('tr-loveless', 'Loveless', 'Quiet Rooms'),
      track('tr-love', 'Love', 'Quiet Rooms'),
      track('tr-glove', 'Glove Box', 'Quiet Rooms'),
      track('tr-neon', 'Neon', 'Arcade Nights', arcade),
      track('tr-joga', 'Jóga', 'Homogenic', bjork),
    ]);
    await storeArtists(db, [
      { ...bjork, genres: ['art pop', 'electronica'], images: [] },
      { ...arcade, genres: [], images: [] },
    ]);
    // Popularity in Earshot: Loveless has two listeners, Lovely Day one, Only Love three.
    const played = (userId: string, trackId: string, iso: string) => ({
      userId,
      trackId,
      playedAt: new Date(iso),
      source: 'api' as const,
    });
    await db
      .insert(plays)
      .values([
        played(mara.id, 'tr-loveless', '2024-05-01T10:00:00Z'),
        played(tomas.id, 'tr-loveless', '2024-05-01T11:00:00Z'),
        played(aiko.id, 'tr-lovely', '2024-05-01T12:00:00Z'),
        played(mara.id, 'tr-only-love', '2024-05-02T10:00:00Z'),
        played(tomas.id, 'tr-only-love', '2024-05-02T11:00:00Z'),
        played(aiko.id, 'tr-only-love', '2024-05-02T12:00:00Z'),
      ]);
    // Two people both named Kim: Mara is friends with the one who sorts second by name.
    const [aberg, berg] = await db
      .insert(users)
      .values([
        { spotifyId: 'kim-aberg', username: 'kim-aberg', name: 'Kim Åberg' },
        { spotifyId: 'kim-berg', username: 'kimberg', name: 'Kim Berg' },
      ])
      .returning();
    await db.insert(friendships).values([
      { userId: mara.id, friendId: berg!.id },
      { userId: berg!.id, friendId: mara.id },
    ]);
    expect(aberg).toBeDefined();
  });
  afterAll(() => harness.close());

  it('ranks the exact name first, then names starting with the query, then by Earshot listeners', async () => {
    const answer = await results(harness, 'q=love');
    // Only Love has the most listeners, but only a word of its name matches; Neon matches by
    // its artist's name alone, so comes last.
    expect(titles(answer)).toEqual(['Love', 'Loveless', 'Lovely Day', 'Only Love', 'Neon']);
    expect(answer.tracks[0]).toEqual({
      type: 'track',
      id: 'tr-love',
      data: {
        track: expect.objectContaining({
          id: 'tr-love',
          title: 'Love',
          artists: [lanterns],
          album: expect.objectContaining({ id: 'al-quiet-rooms', picture: expect.any(String) }),
        }),
      },
    });
    // "Glove" does not start with "love": words match by their beginning.
    expect(titles(answer)).not.toContain('Glove Box');
    expect(answer.artists.map((result) => result.data.name)).toEqual(['Love Arcade']);
  });

  it('ignores case and accents on both sides', async () => {
    const plain = await results(harness, 'q=BJORK');
    expect(plain.artists).toEqual([
      {
        type: 'artist',
        id: bjork.id,
        data: { picture: null, name: 'Björk', genres: ['art pop', 'electronica'] },
      },
    ]);
    expect(titles(plain)).toEqual(['Jóga']);
    expect(titles(await results(harness, 'q=joga'))).toEqual(['Jóga']);
    expect(titles(await results(harness, `q=${encodeURIComponent('JÓGA')}`))).toEqual(['Jóga']);
    const albums = await results(harness, 'q=homog');
    expect(albums.albums).toEqual([
      {
        type: 'album',
        id: 'al-homogenic',
        data: { picture: 'https://i.scdn.co/image/tr-joga', name: 'Homogenic' },
      },
    ]);
  });

  it('matches every word, in any field, and takes LIKE wildcards literally', async () => {
    // "quiet" is only in the album's name: no name match, so Earshot's listeners decide.
    expect(titles(await results(harness, 'q=love%20quiet'))).toEqual([
      'Only Love',
      'Loveless',
      'Lovely Day',
      'Love',
    ]);
    expect(titles(await results(harness, 'q=arcade%20neon'))).toEqual(['Neon']);
    const wildcard = await results(harness, `q=${encodeURIComponent('l%ve_')}`);
    expect(wildcard.tracks).toEqual([]);
  });

  it('finds people by name or username, friends first for the viewer', async () => {
    const anonymous = await results(harness, 'q=kim');
    expect(anonymous.users.map((result) => result.data.name)).toEqual(['Kim Åberg', 'Kim Berg']);
    const forMara = await results(harness, 'q=kim', mara);
    expect(forMara.users.map((result) => result.data.name)).toEqual(['Kim Berg', 'Kim Åberg']);
    expect(forMara.users[0]).toEqual({
      type: 'user',
      id: expect.any(String),
      data: { picture: null, name: 'Kim Berg', username: 'kimberg' },
    });
    expect((await results(harness, 'q=aberg')).users.map((result) => result.data.username)).toEqual(
      ['kim-aberg'],
    );
    // An exact username beats a prefix match of a name.
    const exact = await results(harness, 'q=tomas-ferreira');
    expect(exact.users.map((result) => result.data.name)).toEqual(['Tomás Ferreira']);
  });

  it('answers at most `limit` of each type', async () => {
    const answer = await results(harness, 'q=love&limit=2');
    expect(titles(answer)).toEqual(['Love', 'Loveless']);
  });

  it('refuses a missing, blank, too long or NUL query and a bad limit with a 400 detail', async () => {
    for (const query of [
      '',
      'q=',
      'q=%20%20',
      `q=${'a'.repeat(201)}`,
      'q=love%00',
      'q=love&limit=0',
      'q=love&limit=51',
      'q=love&limit=ten',
    ]) {
      const response = await search(harness, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<ErrorBody>().detail, query).toMatch(/^Invalid querystring: /);
    }
  });
});

/**
 * Rows of each word index that differ from the words its item has now (`earshot_words` of the
 * searched text), both ways: 0 when the index is exact.
 */
async function wordIndexDrift(harness: Harness) {
  const drift = (table: string, key: string, from: string, words: string) =>
    sql.raw(`(SELECT count(*)::int FROM (
      (SELECT word, ${key} FROM ${table}
        EXCEPT SELECT unnest(earshot_words(${words})), id FROM ${from})
      UNION ALL
      (SELECT unnest(earshot_words(${words})), id FROM ${from}
        EXCEPT SELECT word, ${key} FROM ${table})) d)`);
  const result = await harness.database.db.execute<Record<string, number>>(sql`SELECT
    ${drift('track_words', 'track_id', 'tracks', 'search_text')} AS tracks,
    ${drift('album_words', 'album_id', 'albums', 'earshot_fold(name)')} AS albums,
    ${drift('artist_words', 'artist_id', 'artists', 'earshot_fold(name)')} AS artists,
    (SELECT count(*)::int FROM track_words) AS track_words`);
  return result.rows[0]!;
}

describe('search word index', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());

  it('stays exact as the catalogue is stored, renamed and removed', async () => {
    const db = harness.database.db;
    const poet = { id: 'artistP0000000000000001', name: 'Paper Poets' };
    await storeTracks(db, [
      track('tr-paper-moon', 'Paper Moon', 'Night Lights', poet),
      track('tr-stone', 'Stone', 'Night Lights', poet),
    ]);
    expect(titles(await results(harness, 'q=pap%20moo'))).toEqual(['Paper Moon']);
    expect((await results(harness, 'q=nigh')).albums.map((a) => a.data.name)).toEqual([
      'Night Lights',
    ]);

    // Spotify renames the track, its album and its artist.
    const renamedTrack = track('tr-paper-moon', 'Glass Moon', 'Night Lights', {
      ...poet,
      name: 'Glass Poets',
    });
    await storeTracks(db, [
      { ...renamedTrack, album: { ...renamedTrack.album, name: 'Day Lights' } },
    ]);
    expect(titles(await results(harness, 'q=pap%20moo'))).toEqual([]);
    expect(titles(await results(harness, 'q=glass%20moo'))).toEqual(['Glass Moon']);
    const renamed = await results(harness, 'q=day');
    expect(renamed.albums.map((a) => a.data.name)).toEqual(['Day Lights']);
    expect((await results(harness, 'q=nigh')).albums).toEqual([]);
    expect((await results(harness, 'q=glass')).artists.map((a) => a.data.name)).toEqual([
      'Glass Poets',
    ]);
    expect(await wordIndexDrift(harness)).toEqual({
      tracks: 0,
      albums: 0,
      artists: 0,
      track_words: expect.any(Number),
    });

    await db.execute(sql`DELETE FROM track_artists WHERE track_id = 'tr-stone'`);
    await db.execute(sql`DELETE FROM tracks WHERE id = 'tr-stone'`);
    const drift = await wordIndexDrift(harness);
    expect(drift).toMatchObject({ tracks: 0, albums: 0, artists: 0 });
    expect(drift.track_words).toBeGreaterThan(0);
  });

  it("finds a rare word's matches among a common word's, whichever is typed first", async () => {
    // More albums with "midnight" than a query's rarest word reads, the one with "owl" last.
    await harness.database.db.execute(sql`
      INSERT INTO albums (id, name)
      SELECT 'al-midnight-' || lpad(n::text, 5, '0'), 'Midnight Songs ' || n
      FROM generate_series(1, 2100) AS n
      UNION ALL SELECT 'zz-owl', 'Midnight Songs of the Owl'`);
    for (const query of ['midnight%20owl', 'owl%20midnight', 'mid%20owl%20songs']) {
      const answer = await results(harness, `q=${query}`);
      expect(
        answer.albums.map((a) => a.id),
        query,
      ).toEqual(['zz-owl']);
    }
    const common = await results(harness, 'q=midnight%20songs');
    expect(common.albums).toHaveLength(50);
  });

  it('reads the names that start with the query up to the last one, whatever their characters', async () => {
    // Names starting with the query are a range of the folded names, up to the query with its
    // last character's successor: "lov" ends before "low", "😀" (past U+FFFF) before "😁". With
    // `limit` of them, no word match is read: the range alone decides.
    await harness.database.db.execute(sql`
      INSERT INTO artists (id, name, popularity) VALUES
        ('ar-lov-emoji', 'Lov😀 Club', 90), ('ar-lova', 'Lova', 10), ('ar-lovb', 'Lovb', 10),
        ('ar-low', 'Low Tide', 95), ('ar-grin', '😀 Party', 10), ('ar-grin-more', '😁 Party', 99),
        ('ar-grin-exact', '😀', 10)`);
    const names = async (query: string, limit: number) =>
      (await results(harness, `q=${encodeURIComponent(query)}&limit=${limit}`)).artists.map(
        (a) => a.data.name,
      );
    expect(await names('lov', 2)).toEqual(['Lov😀 Club', 'Lova']);
    expect(await names('lov', 50)).toEqual(['Lov😀 Club', 'Lova', 'Lovb']);
    expect(await names('😀', 2)).toEqual(['😀', '😀 Party']);
    expect(await names('lovb', 2)).toEqual(['Lovb']);
  });
});

/** Calls Earshot made to Spotify's search so far. */
async function spotifySearches(harness: Harness): Promise<number> {
  const { values } = await harness.metrics.spotifyRequests.get();
  return values
    .filter((value) => value.labels.endpoint === 'GET /search')
    .reduce((sum, value) => sum + value.value, 0);
}

/** Tracks Earshot stores, by id. */
async function storedTrackIds(harness: Harness, ids: readonly string[]) {
  const rows = await harness.database.db.execute<{ id: string }>(
    sql`SELECT id FROM tracks WHERE id = ANY(${sql.param([...ids])}::text[])`,
  );
  return rows.rows.map((row) => row.id).sort();
}

describe.each([
  ['extended', 50],
  ['development', 10],
] as const)('GET /api/search filled from Spotify (%s mode)', (mode, perCall) => {
  let harness: Harness;
  let mara: Viewer;

  beforeAll(async () => {
    harness = await startHarness({ mode });
    mara = await harness.signIn('maralindqvist');
  });
  afterAll(() => harness.close());

  // Each test asks Spotify its own words, so that none reads what another stored: they hold in
  // any order.
  it('fills what the store lacks from Spotify and stores it in the catalogue', async () => {
    const asked = await spotifySearches(harness);
    const anonymous = await results(harness, 'q=love');
    // A visitor never reaches Spotify: only what is stored (nothing of this, unless another test
    // stored a title with a word starting "love").
    expect(await spotifySearches(harness)).toBe(asked);
    const storedBefore = new Set(anonymous.tracks.map((result) => result.id));

    const answer = await results(harness, 'q=love', mara);
    expect(answer.tracks.filter((result) => !storedBefore.has(result.id)).length).toBeGreaterThan(
      0,
    );
    expect(answer.tracks.length).toBeLessThanOrEqual(perCall);
    expect(answer.artists.length).toBeLessThanOrEqual(perCall);
    expect(answer.albums.length).toBeLessThanOrEqual(perCall);
    const ids = answer.tracks.map((result) => result.id);
    expect(await storedTrackIds(harness, ids)).toEqual([...ids].sort());
    for (const result of answer.tracks) expect(result.data.track.uid).toEqual(expect.any(String));

    // Now stored: a visitor, who never reaches Spotify, finds them too.
    const later = await results(harness, 'q=love');
    expect(later.tracks.map((result) => result.id).sort()).toEqual(
      expect.arrayContaining([...ids].sort()),
    );
  });

  it('asks Spotify about a query once for a while: what it answered is stored', async () => {
    await results(harness, 'q=heaven', mara);
    const before = await spotifySearches(harness);
    await results(harness, 'q=heaven', mara);
    await results(harness, 'q=HEAVEN', mara);
    expect(await spotifySearches(harness)).toBe(before);
    await results(harness, 'q=heaven&limit=20', mara);
    expect(await spotifySearches(harness)).toBe(before + 1);
  });

  it('answers the stored results when Spotify fails, and says why when nothing is stored', async () => {
    // Stored while Spotify answers: what a later, failed search of "midn" can fall back on.
    expect((await results(harness, 'q=midnight', mara)).tracks.length).toBeGreaterThan(0);
    await harness.control('PUT', '/faults', {
      seed: 1,
      rules: [{ type: 'server-error', rate: 1, path: '/v1/search' }],
    });
    try {
      const stored = await results(harness, 'q=midn', mara);
      expect(stored.tracks.length).toBeGreaterThan(0);

      const nothing = await search(harness, 'q=qqqxzv', mara);
      expect(nothing.statusCode).toBe(502);
      expect(nothing.json<ErrorBody>().detail).toMatch(/^Spotify could not answer: /);
    } finally {
      await harness.control('DELETE', '/faults');
    }
    // A failed query is asked again.
    const before = await spotifySearches(harness);
    await results(harness, 'q=qqqxzv', mara);
    expect(await spotifySearches(harness)).toBe(before + 1);
  });
});
