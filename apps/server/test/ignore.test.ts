import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IgnoredList } from '@earshot/contract/ignore';
import { storeTracks } from '../src/services/catalog';
import { startHarness, type Harness } from './support/harness';

let harness: Harness;
let cookie: string;
const artist = { id: 'artistI0000000000000001', name: 'Ivy Static' };

beforeAll(async () => {
  harness = await startHarness();
  cookie = (await harness.login('maralindqvist')).cookie;
  await storeTracks(harness.database.db, [
    {
      id: 'ignored01',
      name: 'Loud Song',
      album: { id: 'al-loud', name: 'Loud', artists: [artist], images: [] },
      artists: [artist],
      duration_ms: 100_000,
    },
  ]);
});
afterAll(() => harness.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, withCookie = true) =>
  harness.app.inject({ method, url, headers: withCookie ? { cookie } : {} });

describe('ignore', () => {
  it('ignores and un-ignores a track by uid, and lists it', async () => {
    expect((await call('POST', '/api/ignore/track/ignored01')).json()).toEqual({
      ignored: true,
      reported: false,
      is_global: false,
    });
    const list = (await call('GET', '/api/ignore')).json<IgnoredList>();
    expect(list.tracks.map((item) => [item.track.uid, item.track.title])).toEqual([
      ['ignored01', 'Loud Song'],
    ]);
    expect((await call('DELETE', '/api/ignore/track/ignored01')).json()).toMatchObject({
      ignored: false,
    });
  });

  it('reports an artist, which also ignores it', async () => {
    const state = (await call('POST', `/api/ignore/artist/${artist.id}/report`)).json();
    expect(state).toEqual({ ignored: true, reported: true, is_global: false });
    const list = (await call('GET', '/api/ignore')).json<IgnoredList>();
    expect(list.artists).toEqual([
      { artist_id: artist.id, name: 'Ivy Static', is_global: false, reported: true },
    ]);
  });

  it('answers 404 for unknown tracks and artists, 401 when logged out', async () => {
    expect((await call('POST', '/api/ignore/track/nope')).statusCode).toBe(404);
    expect((await call('POST', '/api/ignore/artist/nope')).json()).toEqual({
      detail: 'Artist not found',
    });
    expect((await call('GET', '/api/ignore', false)).statusCode).toBe(401);
    expect((await call('POST', '/api/ignore/track/ignored01', false)).statusCode).toBe(401);
  });
});
