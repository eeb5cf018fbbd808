import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityPage } from '@earshot/contract/activity';
import { connectPostgres } from '../src/db/client';
import { globalIgnoredTracks, ignoredTracks } from '../src/db/schema/ignores';
import { savedTracks } from '../src/db/schema/library';
import { plays, userTrackStats } from '../src/db/schema/listening';
import { sessions } from '../src/db/schema/sessions';
import { friendRequests, friendships } from '../src/db/schema/social';
import { users } from '../src/db/schema/users';
import { storeTracks } from '../src/services/catalog';
import { startHarness, type Harness, type Viewer } from './support/harness';
import { soloTrack } from './support/tracks';

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;
let aiko: Viewer;

const artist = { id: 'artistC0000000000000001', name: 'Cache Band' };
const track = (id: string, name: string, album = 'Album') =>
  soloTrack(artist, id, { name, album, durationMs: 180_000 });

const call = (...request: Parameters<Harness['request']>) => harness.request(...request);

async function recent(viewer: Viewer, path = '/api/recent') {
  const response = await call(viewer, 'GET', path);
  expect(response.statusCode).toBe(200);
  return { body: response.body, page: response.json<ActivityPage>() };
}

async function cacheCount(result: 'hit' | 'miss') {
  const metric = await harness.metrics.activityCache.get();
  return metric.values.find((value) => value.labels.result === result)?.value ?? 0;
}

/** `act`, then what mara's feed answers next, and whether it came from memory. */
async function afterwards(act: () => Promise<unknown>, path = '/api/recent') {
  await act();
  const hits = await cacheCount('hit');
  const next = await recent(mara, path);
  return { ...next, fromMemory: (await cacheCount('hit')) > hits };
}

let playedAt = Date.UTC(2025, 0, 1);
const play = (userId: string, trackId: string) =>
  harness.database.db
    .insert(plays)
    .values({ userId, trackId, playedAt: new Date((playedAt += 60_000)), source: 'api' });

beforeAll(async () => {
  harness = await startHarness();
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  aiko = await harness.signIn('11183207465');
});
afterAll(() => harness.close());
// Every test starts from the same world (Mara and Tomas friends, one play each, nothing liked,
// reported or ignored), so each holds alone and in any order.
beforeEach(async () => {
  const { db } = harness.database;
  await db.delete(friendRequests);
  await db.delete(friendships);
  await db.update(users).set({ username: 'tomas-ferreira' }).where(eq(users.id, tomas.id));
  await db.delete(savedTracks);
  await db.delete(ignoredTracks);
  await db.delete(globalIgnoredTracks);
  await db.delete(plays);
  // Play counts are kept as plays arrive, not as they go: start them again too.
  await db.delete(userTrackStats);
  await call(mara, 'POST', `/api/friendship/request/${tomas.id}`);
  await call(tomas, 'POST', `/api/friendship/accept/${mara.id}`);
  await storeTracks(db, [track('tr-cache-1', 'First'), track('tr-cache-2', 'Second')]);
  await play(mara.id, 'tr-cache-1');
  await play(tomas.id, 'tr-cache-2');
});

describe('feed pages kept in memory', () => {
  it('answer the same page again without reading it', async () => {
    const first = await recent(mara);
    const again = await afterwards(async () => {});
    expect(again.fromMemory).toBe(true);
    expect(again.body).toBe(first.body);
    expect(first.page.items).toHaveLength(2);
  });

  it('stay while someone outside the viewer’s circle plays', async () => {
    await recent(mara);
    const next = await afterwards(() => play(aiko.id, 'tr-cache-1'));
    expect(next.fromMemory).toBe(true);
  });

  it('follow a friend’s new play and its play count', async () => {
    await recent(mara);
    const next = await afterwards(() => play(tomas.id, 'tr-cache-2'));
    expect(next.fromMemory).toBe(false);
    expect(next.page.items[0]).toMatchObject({
      user: { username: 'tomas-ferreira' },
      track: { id: 'tr-cache-2' },
      play_count: 2,
    });
  });

  it('follow the viewer’s likes', async () => {
    await recent(mara);
    const next = await afterwards(() =>
      harness.database.db
        .insert(savedTracks)
        .values({ userId: mara.id, trackId: 'tr-cache-2', addedAt: new Date() }),
    );
    expect(next.page.items.find((item) => item.track.id === 'tr-cache-2')?.liked).toBe(true);
  });

  it('keep each viewer’s own view of the same page', async () => {
    await harness.database.db
      .insert(savedTracks)
      .values({ userId: mara.id, trackId: 'tr-cache-2', addedAt: new Date() });
    const maras = (await recent(mara, '/api/recent?user=tomas-ferreira')).page.items;
    const tomass = (await recent(tomas, '/api/recent?user=tomas-ferreira')).page.items;
    expect(maras.find((item) => item.track.id === 'tr-cache-2')?.liked).toBe(true);
    expect(tomass.find((item) => item.track.id === 'tr-cache-2')?.liked).toBe(false);
  });

  it('stay while a friend likes: Recent shows only the viewer’s own likes', async () => {
    const first = await recent(mara);
    const next = await afterwards(() =>
      harness.database.db
        .insert(savedTracks)
        .values({ userId: tomas.id, trackId: 'tr-cache-1', addedAt: new Date() }),
    );
    expect(next.fromMemory).toBe(true);
    expect(next.body).toBe(first.body);
    // What the cache kept is what reading the page gives (another key is read).
    const read = await recent(mara, '/api/recent?limit=29');
    expect(read.page.items).toEqual(first.page.items);
  });

  it('follow a friend’s likes on the Likes page', async () => {
    await recent(mara, '/api/likes');
    const next = await afterwards(
      () =>
        harness.database.db
          .insert(savedTracks)
          .values({ userId: tomas.id, trackId: 'tr-cache-1', addedAt: new Date() }),
      '/api/likes',
    );
    expect(next.fromMemory).toBe(false);
    expect(next.page.items[0]).toMatchObject({
      user: { username: 'tomas-ferreira' },
      track: { id: 'tr-cache-1' },
    });
  });

  it('follow the viewer’s reports', async () => {
    const before = await recent(mara);
    const uid = before.page.items.find((item) => item.track.id === 'tr-cache-2')!.track.uid;
    const next = await afterwards(() =>
      harness.database.db.insert(ignoredTracks).values({ userId: mara.id, uid, reported: true }),
    );
    expect(next.page.items.find((item) => item.track.id === 'tr-cache-2')?.reported).toBe(true);
  });

  it('follow a friend’s new username', async () => {
    await recent(mara);
    const next = await afterwards(() =>
      call(tomas, 'POST', '/api/user/username', { username: 'tomas-f' }),
    );
    expect(next.page.items.map((item) => item.user.username)).toContain('tomas-f');
  });

  it('follow the catalogue: a track’s name, a global ignore', async () => {
    await recent(mara);
    const renamed = await afterwards(() =>
      storeTracks(harness.database.db, [track('tr-cache-1', 'First (Remastered)')]),
    );
    expect(renamed.page.items.map((item) => item.track.title)).toContain('First (Remastered)');
    const album = await afterwards(() =>
      storeTracks(harness.database.db, [track('tr-cache-1', 'First (Remastered)', 'Deluxe')]),
    );
    expect(album.page.items.find((item) => item.track.id === 'tr-cache-1')?.track.album?.name).toBe(
      'Deluxe',
    );
    const uid = renamed.page.items.find((item) => item.track.id === 'tr-cache-1')!.track.uid;
    const ignored = await afterwards(() =>
      harness.database.db.insert(globalIgnoredTracks).values({ uid }),
    );
    expect(ignored.page.items.find((item) => item.track.id === 'tr-cache-1')?.is_global).toBe(true);
  });

  it('follow friendships: an unfriended user disappears at once', async () => {
    await recent(mara);
    const next = await afterwards(() =>
      call(mara, 'DELETE', '/api/friendship/unfriend/tomas-ferreira'),
    );
    expect(next.page.items.map((item) => item.user.username)).not.toContain('tomas-ferreira');
    expect((await call(mara, 'GET', '/api/recent?user=tomas-ferreira')).statusCode).toBe(404);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'follow writes of other processes on the same PostgreSQL',
    async () => {
      await recent(mara);
      const other = connectPostgres(String(harness.database.pool.options.connectionString), 1);
      try {
        await other.db.insert(plays).values({
          userId: tomas.id,
          trackId: 'tr-cache-1',
          playedAt: new Date((playedAt += 60_000)),
          source: 'api',
        });
        // Heard on the listening connection moments after the commit.
        await expect
          .poll(async () => (await recent(mara)).page.items[0]?.track.id)
          .toBe('tr-cache-1');
      } finally {
        await other.close();
      }
    },
  );
});

describe('sessions kept in memory', () => {
  it('end with a logout, and with the session’s removal anywhere', async () => {
    const viewer = await harness.signIn('chidiokafor');
    expect((await call(viewer, 'GET', '/api/user/me')).statusCode).toBe(200);
    await call(viewer, 'POST', '/api/logout');
    expect((await call(viewer, 'GET', '/api/user/me')).statusCode).toBe(401);

    const again = await harness.signIn('chidiokafor');
    expect((await call(again, 'GET', '/api/user/me')).statusCode).toBe(200);
    // Another server process logging the user out everywhere does this.
    await harness.database.db.delete(sessions).where(eq(sessions.userId, again.id));
    expect((await call(again, 'GET', '/api/user/me')).statusCode).toBe(401);
  });
});
