import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ActivityPage } from '@earshot/contract/activity';
import { tracks } from '../src/db/schema/catalog';
import { savedTracks } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { storeTracks } from '../src/services/catalog';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { startHarness, type Harness, type Viewer } from './support/harness';

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;

const bjork = { id: 'artistB0000000000000001', name: 'Björk Åström' };
const lanterns = { id: 'artistL0000000000000001', name: 'The Lanterns' };
function track(id: string, name: string, album: string, artist = lanterns): SpotifyTrack {
  return {
    id,
    name,
    album: { id: `al-${album}`, name: album, artists: [artist], images: [] },
    artists: [artist],
    duration_ms: 180_000,
  };
}

const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  harness = await startHarness();
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
  await harness.befriend(mara, tomas);
  const db = harness.database.db;
  await storeTracks(db, [
    track('tr-moon', 'Moonlight Drive', 'Night Roads'),
    track('tr-sun', 'Sunrise', 'Morning Light'),
    track('tr-joga', 'Jóga', 'Homogenic', bjork),
  ]);
  await db.insert(plays).values([
    { userId: mara.id, trackId: 'tr-moon', playedAt: at('2024-05-17T10:00:00Z'), source: 'api' },
    { userId: mara.id, trackId: 'tr-moon', playedAt: at('2024-05-17T11:00:00Z'), source: 'api' },
    { userId: mara.id, trackId: 'tr-sun', playedAt: at('2024-06-02T08:00:00Z'), source: 'api' },
    { userId: tomas.id, trackId: 'tr-joga', playedAt: at('2024-05-17T10:30:00Z'), source: 'api' },
    { userId: tomas.id, trackId: 'tr-sun', playedAt: at('2023-12-31T23:00:00Z'), source: 'api' },
    { userId: aiko.id, trackId: 'tr-sun', playedAt: at('2024-05-20T09:00:00Z'), source: 'api' },
  ]);
  await db.insert(savedTracks).values([
    { userId: mara.id, trackId: 'tr-joga', addedAt: at('2024-05-18T00:00:00Z') },
    { userId: tomas.id, trackId: 'tr-joga', addedAt: at('2024-05-19T00:00:00Z') },
    { userId: tomas.id, trackId: 'tr-moon', addedAt: at('2024-05-19T00:00:00Z') },
  ]);
});
afterAll(() => harness.close());

async function feed(viewer: Viewer | undefined, path: string, query: Record<string, string> = {}) {
  return harness.app.inject({
    url: `${path}?${new URLSearchParams(query)}`,
    headers: viewer ? { cookie: viewer.cookie } : {},
  });
}
const rows = async (viewer: Viewer, path: string, query: Record<string, string> = {}) =>
  (await feed(viewer, path, query))
    .json<ActivityPage>()
    .items.map((item) => `${item.user.username}:${item.track.id}@${item.date.slice(0, 16)}`);

describe('GET /api/recent scopes', () => {
  it('shows the viewer and friends, newest first, never strangers', async () => {
    expect(await rows(mara, '/api/recent')).toEqual([
      'mara-lindqvist:tr-sun@2024-06-02T08:00',
      'mara-lindqvist:tr-moon@2024-05-17T11:00',
      'tomas-ferreira:tr-joga@2024-05-17T10:30',
      'mara-lindqvist:tr-moon@2024-05-17T10:00',
      'tomas-ferreira:tr-sun@2023-12-31T23:00',
    ]);
  });

  it('shows friends only with include_me=false', async () => {
    expect(await rows(mara, '/api/recent', { include_me: 'false' })).toEqual([
      'tomas-ferreira:tr-joga@2024-05-17T10:30',
      'tomas-ferreira:tr-sun@2023-12-31T23:00',
    ]);
  });

  it('shows one user: oneself or a friend', async () => {
    expect(await rows(mara, '/api/recent', { user: 'mara-lindqvist' })).toHaveLength(3);
    expect(await rows(mara, '/api/recent', { user: tomas.id })).toHaveLength(2);
  });

  it("refuses a stranger's activity with a clear error and no data", async () => {
    const response = await feed(mara, '/api/recent', { user: 'aiko-tanaka' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      detail: "Only aiko-tanaka's friends can see their activity.",
    });
    const likes = await feed(mara, '/api/likes', { user: 'aiko-tanaka' });
    expect(likes.statusCode).toBe(404);
  });

  it('counts the user’s plays of each track and knows what the viewer likes', async () => {
    const page = (await feed(mara, '/api/recent')).json<ActivityPage>();
    const moon = page.items.find((item) => item.track.id === 'tr-moon');
    const joga = page.items.find((item) => item.track.id === 'tr-joga');
    expect(moon?.play_count).toBe(2);
    expect(joga).toMatchObject({ play_count: 1, liked: true });
    expect(moon?.liked).toBe(false);
  });

  it('needs a login and validates its query', async () => {
    expect((await feed(undefined, '/api/recent')).statusCode).toBe(401);
    expect((await feed(mara, '/api/recent', { limit: '51' })).statusCode).toBe(400);
    expect((await feed(mara, '/api/recent', { limit: '0' })).statusCode).toBe(400);
    expect((await feed(mara, '/api/recent', { before: 'garbage' })).statusCode).toBe(400);
  });
});

describe('pages', () => {
  const cursor = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  it('links a next page only when there is more', async () => {
    const five = (await feed(mara, '/api/recent', { limit: '5' })).json<ActivityPage>();
    expect(five.items).toHaveLength(5);
    expect(five.next_before).toBeNull();
    const four = (await feed(mara, '/api/recent', { limit: '4' })).json<ActivityPage>();
    expect(four.items).toHaveLength(4);
    const rest = (
      await feed(mara, '/api/recent', { limit: '4', before: four.next_before! })
    ).json<ActivityPage>();
    expect(rest.items.map((item) => `${item.user.username}:${item.date}`)).toEqual([
      'tomas-ferreira:2023-12-31T23:00:00.000Z',
    ]);
    expect(rest.next_before).toBeNull();
  });

  it.each([
    ['no separator', () => cursor('1715940000000')],
    ['no track part', () => cursor(`1715940000000.${mara.id}`)],
    ['a time that is no number', () => cursor(`soon.${mara.id}.tr-moon`)],
    ['a user that is no id', () => cursor('1715940000000.mara.tr-moon')],
    ['a NUL byte in the track', () => cursor(`1715940000000.${mara.id}.tr\u0000moon`)],
    ['a time out of range', () => cursor(`1${'0'.repeat(20)}.${mara.id}.tr-moon`)],
  ])('refuses a forged cursor with %s', async (_what, forged) => {
    for (const path of ['/api/recent', '/api/likes']) {
      const response = await feed(mara, path, { before: forged() });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        detail: 'Invalid before cursor: use next_before of the previous page.',
      });
    }
  });
});

describe('search (q)', () => {
  it.each([
    ['moonlight', ['tr-moon', 'tr-moon']],
    ['MORNING light', ['tr-sun', 'tr-sun']],
    ['bjork', ['tr-joga']],
    ['homogenic', ['tr-joga']],
    ['tomas', ['tr-joga', 'tr-sun']],
    ['2024-05-17', ['tr-moon', 'tr-joga', 'tr-moon']],
    ['17 May 2024', ['tr-moon', 'tr-joga', 'tr-moon']],
    // As the feed shows its dates.
    ['May 17, 2024', ['tr-moon', 'tr-joga', 'tr-moon']],
    ['may 17 2024', ['tr-moon', 'tr-joga', 'tr-moon']],
    ['Jun. 2, 2024', ['tr-sun']],
    ['Feb 31, 2024', []],
    ['May 2024', ['tr-moon', 'tr-joga', 'tr-moon']],
    ['2024-06', ['tr-sun']],
    ['2023', ['tr-sun']],
  ])('q=%s', async (q, expected) => {
    const page = (await feed(mara, '/api/recent', { q, include_me: 'true' })).json<ActivityPage>();
    expect(page.items.map((item) => item.track.id)).toEqual(expected);
  });

  it('finds nothing for text nobody played, and treats %, _ and \\ literally', async () => {
    for (const q of ['zzz', '%', '_', '\\', 'moon%', 'm_on']) {
      expect((await feed(mara, '/api/recent', { q })).json<ActivityPage>().items).toEqual([]);
    }
  });

  it('merges users found by name with plays found by title, newest first, across pages', async () => {
    // "o": Tomas by his name (all his plays), Mara's plays by their titles and albums.
    expect(await rows(mara, '/api/recent', { q: 'o' })).toEqual(await rows(mara, '/api/recent'));
    const first = (await feed(mara, '/api/recent', { q: 'o', limit: '2' })).json<ActivityPage>();
    const second = (
      await feed(mara, '/api/recent', { q: 'o', limit: '2', before: first.next_before! })
    ).json<ActivityPage>();
    expect([...first.items, ...second.items].map((item) => item.date.slice(0, 16))).toEqual([
      '2024-06-02T08:00',
      '2024-05-17T11:00',
      '2024-05-17T10:30',
      '2024-05-17T10:00',
    ]);
  });

  it('shows nothing, without asking, for a viewer with nobody in scope', async () => {
    for (const q of [{}, { q: 'sun' }, { q: '2024' }] as Record<string, string>[]) {
      const page = await feed(aiko, '/api/recent', { include_me: 'false', ...q });
      expect(page.json()).toEqual({ items: [], next_before: null });
    }
  });

  it('stays right when a word matches thousands of tracks', async () => {
    await harness.database.db.insert(tracks).values(
      Array.from({ length: 2100 }, (_, i) => ({
        id: `filler-${i}`,
        uid: `filler-${i}`,
        name: `Light filler ${i}`,
        titleKey: `light filler ${i}|x`,
        searchText: `light filler ${i}`,
      })),
    );
    const page = (await feed(mara, '/api/recent', { q: 'light' })).json<ActivityPage>();
    expect(page.items.map((item) => item.track.id)).toEqual([
      'tr-sun',
      'tr-moon',
      'tr-moon',
      'tr-sun',
    ]);
  });
});

describe('GET /api/likes', () => {
  it('lists likes of the viewer and friends, newest first', async () => {
    expect(await rows(mara, '/api/likes')).toEqual([
      'tomas-ferreira:tr-moon@2024-05-19T00:00',
      'tomas-ferreira:tr-joga@2024-05-19T00:00',
      'mara-lindqvist:tr-joga@2024-05-18T00:00',
    ]);
  });

  it('pages through likes that share a timestamp without losing one', async () => {
    const first = (await feed(mara, '/api/likes', { limit: '1' })).json<ActivityPage>();
    const second = (
      await feed(mara, '/api/likes', { limit: '5', before: first.next_before ?? '' })
    ).json<ActivityPage>();
    expect([...first.items, ...second.items].map((item) => item.track.id)).toEqual([
      'tr-moon',
      'tr-joga',
      'tr-joga',
    ]);
  });
});

describe('paging', () => {
  it('never repeats or drops an item while new plays arrive', async () => {
    const all = await rows(mara, '/api/recent');
    const arriving = new Date();
    // It adds a play to the world the other tests describe: take it away again, whatever happens.
    onTestFinished(async () => {
      await harness.database.db
        .delete(plays)
        .where(and(eq(plays.userId, tomas.id), eq(plays.playedAt, arriving)));
    });
    const seen: string[] = [];
    let before: string | null = null;
    let first = true;
    do {
      const page: ActivityPage = (
        await feed(mara, '/api/recent', { limit: '2', ...(before && { before }) })
      ).json<ActivityPage>();
      seen.push(
        ...page.items.map((i) => `${i.user.username}:${i.track.id}@${i.date.slice(0, 16)}`),
      );
      before = page.next_before;
      if (first) {
        // A friend plays something new while the viewer scrolls.
        await harness.database.db
          .insert(plays)
          .values({ userId: tomas.id, trackId: 'tr-moon', playedAt: arriving, source: 'api' });
        first = false;
      }
    } while (before);
    expect(seen).toEqual(all);
  });
});
