import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicProfile } from '@earshot/contract/profile';
import { playlists, userPlaylists } from '../src/db/schema/library';
import { plays } from '../src/db/schema/listening';
import { storeTracks } from '../src/services/catalog';
import { startHarness, type Harness, type Viewer } from './support/harness';

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;

const visit = (handle = 'mara-lindqvist', cookie?: string) =>
  harness.app.inject({ url: `/api/user/${handle}/public`, headers: cookie ? { cookie } : {} });

/** The profile cache's hits and misses so far (other tests of the file may have counted some). */
async function cacheResults() {
  const counted = await harness.metrics.profileCache.get();
  const count = (result: string) =>
    counted.values.find((value) => value.labels.result === result)?.value ?? 0;
  return { hit: count('hit'), miss: count('miss') };
}

beforeAll(async () => {
  harness = await startHarness();
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  const artist = { id: 'artistV0000000000000001', name: 'The Lanterns' };
  await storeTracks(harness.database.db, [
    {
      id: 'tr-visit',
      name: 'Moonlight Drive',
      album: { id: 'al-visit', name: 'Night Roads', artists: [artist], images: [] },
      artists: [artist],
      duration_ms: 180_000,
    },
  ]);
});
afterAll(() => harness.close());

describe("a visitor's view of a public profile", () => {
  it('is answered from memory until the owner plays or keeps a playlist, then exactly', async () => {
    const first = await visit();
    expect(first.statusCode).toBe(200);
    const counted = await cacheResults();
    const second = await visit('Mara-Lindqvist');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(await cacheResults()).toEqual({ hit: counted.hit + 1, miss: counted.miss });
    const before = first.json<PublicProfile>().stats;

    await harness.database.db.insert(plays).values({
      userId: mara.id,
      trackId: 'tr-visit',
      playedAt: new Date(Date.now() - 60_000),
      source: 'api',
    });
    expect((await visit()).json<PublicProfile>().stats.total_plays).toBe(before.total_plays + 1);

    await harness.database.db.insert(playlists).values({
      id: 'pl-visit',
      name: 'Road trip',
      ownerSpotifyId: 'maralindqvist',
      isCollaborative: false,
      trackCount: 0,
    });
    await harness.database.db
      .insert(userPlaylists)
      .values({ userId: mara.id, playlistId: 'pl-visit', position: 0 });
    expect((await visit()).json<PublicProfile>().stats.playlists).toBe(before.playlists + 1);
  });

  it('is not what a signed-in viewer gets: a friend sees the highlights', async () => {
    await visit();
    await harness.befriend(mara, tomas);
    const asFriend = (await visit('mara-lindqvist', tomas.cookie)).json<PublicProfile>();
    expect(asFriend.stats.top_songs_all_time).not.toBeNull();
    expect((await visit()).json<PublicProfile>().stats.top_songs_all_time).toBeNull();
  });

  it('keeps no answer for a profile that does not exist', async () => {
    expect((await visit('nobody-here')).statusCode).toBe(404);
    expect((await visit('nobody-here')).json()).toEqual({ detail: 'Profile not found' });
  });
});
