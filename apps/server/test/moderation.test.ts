import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedTracks } from '../src/db/schema/library';
import { storeTracks } from '../src/services/catalog';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { startHarness, type Harness, type Viewer } from './support/harness';

let harness: Harness;
let mara: Viewer;
let tomas: Viewer;

const artist = { id: 'artistM0000000000000001', name: 'Moss Relay' };
const track = (id: string, name: string): SpotifyTrack => ({
  id,
  name,
  album: {
    id: `al-${id}`,
    name: `${name} EP`,
    release_date: '2019',
    artists: [artist],
    images: [],
  },
  artists: [artist],
  duration_ms: 180_000,
});

type Method = 'GET' | 'POST' | 'DELETE';
const call = (viewer: Viewer | undefined, method: Method, url: string, payload?: unknown) =>
  harness.app.inject({
    method,
    url,
    headers: viewer ? { cookie: viewer.cookie } : {},
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  });

async function friendLikes(viewer: Viewer, username: string): Promise<number> {
  const list = (await call(viewer, 'GET', '/api/friendship/list')).json<{
    friends: { username: string; likes: number }[];
  }>();
  const friend = list.friends.find((entry) => entry.username === username);
  if (!friend) throw new Error(`${username} is not in the list`);
  return friend.likes;
}

async function profileLikes(viewer: Viewer, username: string): Promise<number> {
  const profile = (await call(viewer, 'GET', `/api/user/${username}/public`)).json<{
    stats: { total_likes: number };
  }>();
  return profile.stats.total_likes;
}

beforeAll(async () => {
  harness = await startHarness();
  mara = await harness.signIn('maralindqvist');
  tomas = await harness.signIn('31kzt4wq7yv2jhd6ncx3bfrm5lpa');
  await call(mara, 'POST', '/api/friendship/request/tomas-ferreira');
  await call(tomas, 'POST', '/api/friendship/accept/mara-lindqvist');
  await storeTracks(harness.database.db, [track('mod01', 'Lichen'), track('mod02', 'Fern')]);
  await harness.database.db
    .insert(savedTracks)
    .values(
      ['mod01', 'mod02'].map((trackId) => ({ userId: tomas.id, trackId, addedAt: new Date() })),
    );
});
afterAll(() => harness.close());

describe('counts that leave out ignored items', () => {
  it('agree between the Friends table and the profile after an ignore', async () => {
    const before = await friendLikes(mara, 'tomas-ferreira');
    expect(await profileLikes(mara, 'tomas-ferreira')).toBe(before);

    await call(tomas, 'POST', '/api/ignore/track/mod01');
    expect(await friendLikes(mara, 'tomas-ferreira')).toBe(before - 1);
    expect(await profileLikes(mara, 'tomas-ferreira')).toBe(before - 1);

    await call(tomas, 'DELETE', '/api/ignore/track/mod01');
    expect(await friendLikes(mara, 'tomas-ferreira')).toBe(before);
    expect(await profileLikes(mara, 'tomas-ferreira')).toBe(before);
  });
});
