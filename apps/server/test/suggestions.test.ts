import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuggestionItem, SuggestionList } from '@earshot/contract/suggestions';
import { tracks } from '../src/db/schema/catalog';
import { globalIgnoredArtists, globalIgnoredTracks } from '../src/db/schema/ignores';
import { followedArtists, savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { friendships } from '../src/db/schema/social';
import { users } from '../src/db/schema/users';
import { storeTracks } from '../src/services/catalog';
import { FRIENDS_RECENT_SONGS } from '../src/services/suggestions';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { startHarness, type Harness, type Viewer } from './support/harness';
import { soloTrack } from './support/tracks';

const DAY_MS = 24 * 3600_000;
/** The fixtures' "now": one instant, so that no two fixture plays of a user share one. */
const NOW = Date.now();
const day = (daysAgo: number) => new Date(NOW - daysAgo * DAY_MS);
const isoDay = (daysAgo: number) => day(daysAgo).toISOString().slice(0, 10);

const lanterns = { id: 'artistLanterns00000001', name: 'The Lanterns' };
const noise = { id: 'artistNoise00000000001', name: 'Noise Makers' };
const banned = { id: 'artistBanned0000000001', name: 'Banned Band' };
const followed = { id: 'artistFollowed00000001', name: 'Nova Reyes' };
const leader = { id: 'artistLeader0000000001', name: 'Ada Lead' };

function track(
  id: string,
  artist = lanterns,
  album: { id: string; name: string; release_date?: string; album_type?: string } = {
    id: `al-${id}`,
    name: `Album of ${id}`,
  },
): SpotifyTrack {
  return {
    id,
    name: `Song ${id}`,
    album: { ...album, artists: [artist], images: [] },
    artists: [artist],
    duration_ms: 200_000,
  };
}

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;
let jonas: Viewer;
let aiko: Viewer;

/** Keeps every fixture play at its own instant: (user, played_at) is the plays' key. */
let playSerial = 0;

/** `count` plays of a track by a user, `daysAgo` days ago (a minute apart). */
async function play(user: Viewer, trackId: string, count: number, daysAgo: number) {
  const base = NOW - daysAgo * DAY_MS;
  await harness.database.db.insert(plays).values(
    Array.from({ length: count }, (_, i) => ({
      userId: user.id,
      trackId,
      playedAt: new Date(base - i * 60_000 - (playSerial += 1)),
      source: 'api' as const,
    })),
  );
}

async function like(user: Viewer, trackId: string, daysAgo: number) {
  await harness.database.db
    .insert(savedTracks)
    .values({ userId: user.id, trackId, addedAt: day(daysAgo) });
}

async function get(viewer: Viewer | undefined, path: string) {
  return harness.app.inject({
    url: `/api/suggestions/${path}`,
    headers: viewer ? { cookie: viewer.cookie } : {},
  });
}

async function items(viewer: Viewer, path: string): Promise<SuggestionItem[]> {
  const response = await get(viewer, path);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SuggestionList>().items;
}

const ids = async (viewer: Viewer, path: string) =>
  (await items(viewer, path)).map((item) => item.track.id);

beforeAll(async () => {
  harness = await startHarness();
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  jonas = await harness.signIn('jonasbrandt');
  aiko = await harness.signIn('11183207465');
  await harness.befriend(mara, tomas);
  await harness.befriend(mara, jonas);
  const db = harness.database.db;

  const newAlbum = {
    id: 'al-new',
    name: 'Fresh Paint',
    release_date: isoDay(20),
    album_type: 'album',
  };
  const heardAlbum = { id: 'al-heard', name: 'Heard It', release_date: isoDay(40) };
  const oldAlbum = { id: 'al-old', name: 'Old Days', release_date: isoDay(400) };
  await storeTracks(db, [
    // Mara's own listening.
    ...['rep-a', 'rep-b', 'rep-c', 'rep-liked', 'rep-ignored'].map((id) => track(id)),
    track('rep-banned', banned),
    // Friends' listening.
    ...['fr-two', 'fr-liked', 'fr-old', 'fr-stranger', 'fr-global', 'fr-heard', 'fr-late'].map(
      (id) => track(id, noise),
    ),
    // Mara's likes.
    ...['old-love', 'fresh-love', 'never-played-love', 'ignored-love'].map((id) => track(id)),
    // Releases of the artist Mara follows.
    track('new-1', followed, newAlbum),
    track('new-2', followed, newAlbum),
    track('heard-1', followed, heardAlbum),
    track('heard-2', followed, heardAlbum),
    track('old-1', followed, oldAlbum),
  ]);

  // Like Your On-Repeat.
  await play(mara, 'rep-a', 5, 2);
  await play(mara, 'rep-b', 3, 10);
  await play(mara, 'rep-c', 8, 200);
  await play(mara, 'rep-liked', 9, 1);
  await like(mara, 'rep-liked', 1);
  await play(mara, 'rep-ignored', 7, 1);
  await play(mara, 'rep-banned', 6, 1);
  await harness.app.inject({
    method: 'POST',
    url: '/api/ignore/track/rep-ignored',
    headers: { cookie: mara.cookie },
  });
  await db.insert(globalIgnoredArtists).values({ artistId: banned.id });

  // Popular with Friends.
  await play(tomas, 'fr-two', 2, 1);
  await play(jonas, 'fr-two', 1, 2);
  await like(tomas, 'fr-liked', 3);
  await play(tomas, 'fr-old', 4, 60);
  await play(aiko, 'fr-stranger', 9, 1);
  await play(tomas, 'fr-global', 3, 1);
  await db.insert(globalIgnoredTracks).values({ uid: 'fr-global' });
  await play(tomas, 'fr-heard', 3, 1);
  await play(mara, 'fr-heard', 1, 300);
  await play(jonas, 'fr-late', 1, 20);
  await play(tomas, 'rep-a', 2, 1);
  await play(tomas, 'new-1', 2, 1);
  await play(jonas, 'new-2', 2, 1);

  // Rediscover Likes.
  await play(mara, 'old-love', 10, 200);
  await like(mara, 'old-love', 500);
  await play(mara, 'fresh-love', 4, 3);
  await like(mara, 'fresh-love', 500);
  await like(mara, 'never-played-love', 30);
  await like(mara, 'ignored-love', 600);
  await harness.app.inject({
    method: 'POST',
    url: '/api/ignore/track/ignored-love',
    headers: { cookie: mara.cookie },
  });

  // New from Followed Artists: Mara played a track of one recent release.
  await db.insert(followedArtists).values({ userId: mara.id, artistId: followed.id });
  await play(mara, 'heard-1', 1, 5);
});
afterAll(() => harness.close());

describe('GET /api/suggestions/like-on-repeat', () => {
  it('lists the most played songs of the window that the viewer has not liked', async () => {
    expect(await ids(mara, 'like-on-repeat?days=7')).toEqual(['rep-a', 'heard-1']);
    expect(await ids(mara, 'like-on-repeat?days=30')).toEqual(['rep-a', 'rep-b', 'heard-1']);
    expect(await ids(mara, 'like-on-repeat?days=365')).toEqual([
      'rep-c',
      'rep-a',
      'rep-b',
      'fr-heard',
      'heard-1',
    ]);
    expect(await ids(mara, 'like-on-repeat')).toEqual([
      'rep-c',
      'rep-a',
      'rep-b',
      'fr-heard',
      'heard-1',
    ]);
  });

  it('says how often and when, and respects the limit', async () => {
    const [first] = await items(mara, 'like-on-repeat?days=7&limit=1');
    expect(first).toMatchObject({ liked: false, reason: 'Played 5 times this week' });
    expect((await items(mara, 'like-on-repeat?days=30&limit=2'))[1]?.reason).toBe(
      'Played 3 times in the last 30 days',
    );
    expect((await items(mara, 'like-on-repeat?limit=1'))[0]?.reason).toBe(
      'You played this 8 times',
    );
  });

  it('refuses windows other than 7, 30, 90 and 365 days', async () => {
    for (const days of ['14', '0', 'all', '-7', '7.5']) {
      const response = await get(mara, `like-on-repeat?days=${days}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toHaveProperty('detail');
    }
  });
});

describe('GET /api/suggestions/friends-favorites', () => {
  it('suggests what friends played or liked lately that the viewer never played', async () => {
    const found = await items(mara, 'friends-favorites');
    expect(found.map((item) => item.track.id).sort()).toEqual(['fr-late', 'fr-liked', 'fr-two']);
    const reasons = Object.fromEntries(found.map((item) => [item.track.id, item.reason]));
    expect(reasons).toEqual({
      'fr-two': 'Played by Tomás and 1 other friend',
      'fr-liked': 'Liked by Tomás',
      'fr-late': 'Played by Jonas',
    });
  });

  it('favours songs of more friends and of lately, and refreshing draws another selection', async () => {
    const firsts = new Map<string, number>();
    for (let draw = 0; draw < 60; draw++) {
      const [first] = await ids(mara, 'friends-favorites?limit=1');
      if (first) firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    // Weights: two friends this week ~1.8, one like this week ~1.5, one play 20 days ago ~0.14.
    expect(firsts.get('fr-two') ?? 0).toBeGreaterThan(firsts.get('fr-late') ?? 0);
    expect(firsts.get('fr-liked') ?? 0).toBeGreaterThan(firsts.get('fr-late') ?? 0);
    expect(firsts.size).toBeGreaterThan(1);
  });
});

describe('GET /api/suggestions/friends-favorites, when the first touches drawn are all heard', () => {
  it('draws again among every touch and still finds the one song left', async () => {
    // A listener's friend played 30 songs this week; the listener played all but one of them. A
    // call for one item first draws among 20 touches: mostly songs they played, which the checks
    // drop. (Two accounts no other test of this file uses: its tests run in any order.)
    const listener = await harness.signIn('31pd8vnx2kq6wzr4tyc7mhjb5gfe');
    const friend = await harness.signIn('12168805723');
    await harness.befriend(listener, friend);
    const crowd = Array.from({ length: 30 }, (_, i) => `crowd-${i}`);
    await storeTracks(
      harness.database.db,
      crowd.map((id) => track(id, noise)),
    );
    for (const id of crowd) await play(friend, id, 1, 2);
    for (const id of crowd.slice(0, 29)) await play(listener, id, 1, 3);

    for (let call = 0; call < 10; call++) {
      expect(await ids(listener, 'friends-favorites?limit=1')).toEqual(['crowd-29']);
    }
  });
});

describe("GET /api/suggestions/friends-favorites, of a friend's latest songs only", () => {
  it('leaves out a song a friend played before their latest hundred', async () => {
    // A listener of this test's own (the one account no other test of this file signs in), and
    // a friend who never signs in: a user row and the friendship's two rows, as social.ts keeps
    // them.
    const listener = await harness.signIn('31xt5bgq9rwn3yk7dzf2cjv6hpam');
    const db = harness.database.db;
    const [friend] = await db
      .insert(users)
      .values({ spotifyId: 'heavy-friend', username: 'heavy-friend', name: 'Heavy Friend' })
      .returning();
    await db.insert(friendships).values([
      { userId: listener.id, friendId: friend!.id },
      { userId: friend!.id, friendId: listener.id },
    ]);
    const latest = Array.from({ length: FRIENDS_RECENT_SONGS }, (_, i) => `latest-${i}`);
    await storeTracks(
      db,
      [...latest, 'before-latest'].map((id) => track(id, noise)),
    );
    // Ten days ago: within the window, at a third of this week's weight.
    await play({ id: friend!.id, cookie: '' }, 'before-latest', 1, 10);
    for (const id of latest) await play({ id: friend!.id, cookie: '' }, id, 1, 1);

    for (let call = 0; call < 10; call++) {
      const shown = await ids(listener, 'friends-favorites?limit=50');
      expect(shown).toHaveLength(50);
      expect(shown).not.toContain('before-latest');
    }
  });
});

describe('GET /api/suggestions/rediscover-likes', () => {
  it('suggests liked songs not played for a long time, never the ignored', async () => {
    const found = await items(mara, 'rediscover-likes');
    expect(found.map((item) => item.track.id).sort()).toEqual(['never-played-love', 'old-love']);
    const byId = Object.fromEntries(found.map((item) => [item.track.id, item]));
    const lastMonth = day(200).toLocaleDateString('en', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(byId['old-love']).toMatchObject({
      liked: true,
      reason: `You played this 10 times, last in ${lastMonth}`,
    });
    expect(byId['never-played-love']?.reason).toMatch(
      /^You liked this in \w+ \d{4}, not played lately$/,
    );
  });

  it('favours the likes once played most', async () => {
    let oldLoveFirst = 0;
    for (let draw = 0; draw < 40; draw++) {
      if ((await ids(mara, 'rediscover-likes?limit=1'))[0] === 'old-love') oldLoveFirst += 1;
    }
    // Weight 11 against 1: first about 11 times in 12.
    expect(oldLoveFirst).toBeGreaterThan(25);
  });
});

describe('GET /api/suggestions/unheard-from-followed', () => {
  it('suggests recent releases of followed artists the viewer played nothing from', async () => {
    const found = await items(mara, 'unheard-from-followed');
    expect(found).toHaveLength(1);
    expect(['new-1', 'new-2']).toContain(found[0]?.track.id);
    expect(found[0]).toMatchObject({
      liked: false,
      reason: 'New album from Nova Reyes, an artist you follow',
    });
  });

  it('draws another track of the release on refresh', async () => {
    const seen = new Set<string>();
    for (let draw = 0; draw < 20; draw++) {
      for (const id of await ids(mara, 'unheard-from-followed')) seen.add(id);
    }
    expect(seen).toEqual(new Set(['new-1', 'new-2']));
  });

  it('suggests nothing to someone who follows no one', async () => {
    expect(await items(tomas, 'unheard-from-followed')).toEqual([]);
  });
});

describe('all sections', () => {
  const sections = [
    'unheard-from-followed',
    'like-on-repeat',
    'friends-favorites',
    'rediscover-likes',
  ];

  it('never show a song twice on one page', async () => {
    for (let page = 0; page < 10; page++) {
      const all = (
        await Promise.all(sections.map((section) => items(mara, `${section}?limit=50`)))
      ).flat();
      const uids = all.map((item) => item.track.uid);
      expect(uids).toHaveLength(new Set(uids).size);
    }
  });

  it('never suggest what the viewer or the admins ignored', async () => {
    const all = (
      await Promise.all(sections.map((section) => ids(mara, `${section}?limit=50`)))
    ).flat();
    for (const ignored of ['rep-ignored', 'rep-banned', 'fr-global', 'ignored-love']) {
      expect(all).not.toContain(ignored);
    }
  });

  it.each(sections)('%s needs a login, before looking at the query', async (section) => {
    for (const query of ['', '?limit=0', '?limit=abc']) {
      const response = await get(undefined, `${section}${query}`);
      expect(response.statusCode).toBe(401);
    }
  });

  it.each(sections)(
    '%s answers 20 by default, at most 50, and refuses other limits',
    async (section) => {
      for (const limit of ['0', '51', '-1', '2.5', 'x', '']) {
        const response = await get(mara, `${section}?limit=${limit}`);
        expect(response.statusCode, `limit=${limit}`).toBe(400);
        expect(response.json()).toHaveProperty('detail');
      }
      expect((await get(mara, `${section}?limit=50`)).statusCode).toBe(200);
    },
  );
});

describe('the limit', () => {
  it('is 20 by default', async () => {
    const many = Array.from({ length: 30 }, (_, i) => track(`bulk-${String(i).padStart(2, '0')}`));
    await storeTracks(harness.database.db, many);
    for (const [index, bulk] of many.entries()) await play(aiko, bulk.id!, 1 + index, 1);
    expect(await ids(aiko, 'like-on-repeat')).toHaveLength(20);
    expect(await ids(aiko, 'like-on-repeat?limit=50')).toHaveLength(31);
  });
});

describe('versions of a song', () => {
  let chidi: Viewer;
  let sofia: Viewer;
  let ethan: Viewer;
  /** Same title and artist: every one after the first is a version of the first's song. */
  const version = (id: string, name: string) => soloTrack(noise, id, { name });

  beforeAll(async () => {
    chidi = await harness.signIn('chidiokafor');
    sofia = await harness.signIn('sofiamtz');
    ethan = await harness.signIn('ethanbrooks');
    await harness.befriend(chidi, sofia);
    await harness.befriend(chidi, ethan);
    const db = harness.database.db;
    for (const id of ['twin-a', 'twin-b']) await storeTracks(db, [version(id, 'Twin Song')]);
    for (const id of ['echo-a', 'echo-b', 'echo-c']) await storeTracks(db, [version(id, 'Echo')]);
    for (const id of ['loved-a', 'loved-b']) await storeTracks(db, [version(id, 'Loved')]);
    for (const id of ['wave-a', 'wave-b']) await storeTracks(db, [version(id, 'Wave')]);
    for (const id of ['faded-a', 'faded-b']) await storeTracks(db, [version(id, 'Faded')]);
    // Chidi plays two versions of a song this week.
    await play(chidi, 'twin-a', 2, 1);
    await play(chidi, 'twin-b', 3, 2);
    // His friends play versions of a song he never heard, Sofía two of them.
    await play(sofia, 'echo-b', 1, 1);
    await play(sofia, 'echo-c', 1, 2);
    await play(ethan, 'echo-c', 1, 3);
    // Sofía played one version of another song yesterday, Ethan liked the other this week.
    await play(sofia, 'wave-a', 1, 1);
    await like(ethan, 'wave-b', 5);
    // A song he liked long ago, played as another version 100 days ago.
    await like(chidi, 'loved-b', 400);
    await play(chidi, 'loved-a', 4, 100);
    // A song he liked long ago and played lately as another version.
    await like(chidi, 'faded-a', 400);
    await play(chidi, 'faded-b', 2, 10);
    // An artist he follows put out an album with their single of last year, which Ethan plays.
    await storeTracks(db, [
      track('lead-single', leader, {
        id: 'al-lead-single',
        name: 'Lead',
        release_date: isoDay(300),
      }),
    ]);
    await storeTracks(db, [
      {
        ...track('lead-album', leader, {
          id: 'al-lead-new',
          name: 'The Album',
          release_date: isoDay(10),
          album_type: 'album',
        }),
        name: 'Song lead-single',
      },
    ]);
    await db.insert(followedArtists).values({ userId: chidi.id, artistId: leader.id });
    await play(ethan, 'lead-single', 2, 1);
  });

  it('share one song', async () => {
    const rows = await harness.database.db
      .select({ id: tracks.id, uid: tracks.uid })
      .from(tracks)
      .where(inArray(tracks.id, ['twin-b', 'echo-b', 'echo-c', 'loved-b']))
      .orderBy(tracks.id);
    expect(rows).toEqual([
      { id: 'echo-b', uid: 'echo-a' },
      { id: 'echo-c', uid: 'echo-a' },
      { id: 'loved-b', uid: 'loved-a' },
      { id: 'twin-b', uid: 'twin-a' },
    ]);
  });

  it('count as one song on repeat, shown as the version played most', async () => {
    for (const [path, reason] of [
      ['like-on-repeat?days=7', 'Played 5 times this week'],
      ['like-on-repeat', 'You played this 5 times'],
    ] as const) {
      const found = (await items(chidi, path)).filter((item) => item.track.uid === 'twin-a');
      expect(found.map((item) => [item.track.id, item.reason])).toEqual([['twin-b', reason]]);
    }
  });

  it('count each friend once for a song, whatever versions they played', async () => {
    const found = (await items(chidi, 'friends-favorites')).filter(
      (item) => item.track.uid === 'echo-a',
    );
    expect(found.map((item) => [item.track.id, item.reason])).toEqual([
      ['echo-b', 'Played by Sofía and 1 other friend'],
    ]);
  });

  it('show a song of friends as the version its first-named friend liked, else played last', async () => {
    const found = (await items(chidi, 'friends-favorites')).filter(
      (item) => item.track.uid === 'wave-a' || item.track.uid === 'echo-a',
    );
    expect(found.map((item) => [item.track.id, item.reason]).sort()).toEqual([
      ['echo-b', 'Played by Sofía and 1 other friend'],
      ['wave-b', 'Liked by Ethan and 1 other friend'],
    ]);
  });

  it('leave a song on a new release of a followed artist to that section, in any version', async () => {
    expect(await ids(chidi, 'unheard-from-followed')).toEqual(['lead-album']);
    for (let draw = 0; draw < 5; draw++) {
      const friends = await items(chidi, 'friends-favorites?limit=50');
      expect(friends.map((item) => item.track.uid)).not.toContain('lead-single');
    }
  });

  it('rediscover a liked song by the last play of any of its versions', async () => {
    const found = (await items(chidi, 'rediscover-likes')).filter(
      (item) => item.track.uid === 'loved-a',
    );
    expect(found.map((item) => item.track.id)).toEqual(['loved-b']);
    expect(found[0]?.reason).toMatch(/^You played this 4 times, last in \w+ \d{4}$/);
    const rested = await items(chidi, 'rediscover-likes?limit=50');
    expect(rested.map((item) => item.track.uid)).not.toContain('faded-a');
  });
});

describe('reasons', () => {
  let rafa: Viewer;
  let camille: Viewer;
  let priya: Viewer;
  let kwame: Viewer;
  const kinds = { id: 'artistKinds00000000001', name: 'Kinds of Rain' };
  const twice = { id: 'artistTwice00000000001', name: 'Twice Told' };

  beforeAll(async () => {
    rafa = await harness.signIn('rafasouza');
    camille = await harness.signIn('camilledubois');
    priya = await harness.signIn('31ugbq6xn2r7cfy4d5kzsmhwtaoe');
    kwame = await harness.signIn('31h7cxwqz3m5kv2pn8dytbrj4lsa');
    for (const friend of [camille, priya, kwame]) await harness.befriend(rafa, friend);
    const db = harness.database.db;
    await storeTracks(db, [
      ...['count-once', 'count-twice'].map((id) => track(id)),
      ...['trio-song', 'nameless-song', 'spaced-song'].map((id) => track(id, noise)),
      ...(['single', 'compilation', undefined] as const).map((albumType) =>
        track(`kind-${albumType ?? 'none'}`, kinds, {
          id: `al-kind-${albumType ?? 'none'}`,
          name: `Kind ${albumType ?? 'none'}`,
          release_date: isoDay(15),
          ...(albumType && { album_type: albumType }),
        }),
      ),
    ]);
    // One song on two new releases of a followed artist: a single, then the album.
    for (const [id, albumType] of [
      ['twice-single', 'single'],
      ['twice-album', 'album'],
    ] as const) {
      await storeTracks(db, [
        {
          ...track(id, twice, {
            id: `al-${id}`,
            name: `Release ${id}`,
            release_date: isoDay(12),
            album_type: albumType,
          }),
          name: 'Told Twice',
        },
      ]);
    }
    await db.insert(followedArtists).values([
      { userId: rafa.id, artistId: kinds.id },
      { userId: rafa.id, artistId: twice.id },
    ]);

    await play(rafa, 'count-once', 1, 3);
    await play(rafa, 'count-twice', 2, 40);
    // Three friends played one song, Camille last.
    await play(priya, 'trio-song', 1, 3);
    await play(kwame, 'trio-song', 1, 2);
    await play(camille, 'trio-song', 1, 1);
    // Friends whose Spotify names are blank, or padded with spaces.
    await db.execute(sql`UPDATE users SET name = '  ' WHERE id = ${kwame.id}`);
    await db.execute(sql`UPDATE users SET name = ' Priya  Raman ' WHERE id = ${priya.id}`);
    await play(kwame, 'nameless-song', 1, 1);
    await play(priya, 'spaced-song', 1, 1);
  });

  it('count plays in words', async () => {
    const reasons = async (path: string) =>
      (await items(rafa, path)).map((item) => [item.track.id, item.reason]);
    expect(await reasons('like-on-repeat?days=90')).toEqual([
      ['count-twice', 'Played twice in the last 90 days'],
      ['count-once', 'Played once in the last 90 days'],
    ]);
    expect(await reasons('like-on-repeat?days=7')).toEqual([
      ['count-once', 'Played once this week'],
    ]);
    expect(await reasons('like-on-repeat')).toEqual([
      ['count-twice', 'You played this twice'],
      ['count-once', 'You played this once'],
    ]);
  });

  it('name the kind of a new release, and show a song on two of them once', async () => {
    const found = await items(rafa, 'unheard-from-followed?limit=50');
    const byArtist = (artist: { name: string }) =>
      found.filter((item) => item.reason.includes(artist.name));
    expect(
      byArtist(kinds)
        .map((item) => [item.track.id, item.reason])
        .sort(),
    ).toEqual([
      ['kind-compilation', 'New compilation from Kinds of Rain, an artist you follow'],
      ['kind-none', 'New release from Kinds of Rain, an artist you follow'],
      ['kind-single', 'New single from Kinds of Rain, an artist you follow'],
    ]);
    const told = byArtist(twice);
    expect(told).toHaveLength(1);
    expect(told[0]?.track.uid).toBe('twice-single');
  });

  it('name friends by their first name, else their username, and count the others', async () => {
    const [kwameRow] = await harness.database.db
      .execute<{ username: string }>(sql`SELECT username FROM users WHERE id = ${kwame.id}`)
      .then((result) => result.rows);
    const reasons = Object.fromEntries(
      (await items(rafa, 'friends-favorites?limit=50')).map((item) => [item.track.id, item.reason]),
    );
    expect(reasons).toEqual({
      'trio-song': 'Played by Camille and 2 other friends',
      'nameless-song': `Played by ${kwameRow!.username}`,
      'spaced-song': 'Played by Priya',
    });
  });
});
