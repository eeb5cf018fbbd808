import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { trackArtists, tracks, uidRedirects } from '../src/db/schema/catalog';
import { storeTracks } from '../src/services/catalog';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { freshDatabase } from './support/database';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

// Each test credits its own artist: songs are matched by title and primary artist, so the tests
// hold alone and in any order.
const artist = { id: 'artist0000000000000001', name: 'The Lanterns' };
function spotifyTrack(
  id: string,
  name: string,
  isrc?: string,
  by: { id: string; name: string } = artist,
): SpotifyTrack {
  return {
    id,
    name,
    album: { id: `album-of-${id}`, name: 'Album', artists: [by], images: [] },
    artists: [by],
    duration_ms: 200_000,
    ...(isrc && { external_ids: { isrc } }),
  };
}

async function uidOf(id: string) {
  const [row] = await database.db.select({ uid: tracks.uid }).from(tracks).where(eq(tracks.id, id));
  return row?.uid;
}

describe('storeTracks', () => {
  it('gives versions of one recording (same ISRC) one uid, the first id seen', async () => {
    await storeTracks(database.db, [spotifyTrack('single01', 'Northern Lights', 'USAAA0000001')]);
    await storeTracks(database.db, [
      spotifyTrack('album001', 'Northern Lights - Album Version', 'USAAA0000001'),
    ]);
    expect(await uidOf('single01')).toBe('single01');
    expect(await uidOf('album001')).toBe('single01');
  });

  it('falls back to title and primary artist when no ISRC matches', async () => {
    const harbour = { id: 'artist0000000000000002', name: 'Harbour Lights' };
    await storeTracks(database.db, [spotifyTrack('studio01', 'Lighthouse', 'USEEE1', harbour)]);
    await storeTracks(database.db, [
      spotifyTrack('live0001', 'Lighthouse (Live)', 'USBBB9', harbour),
    ]);
    expect(await uidOf('live0001')).toBe('studio01');
    await storeTracks(database.db, [spotifyTrack('other001', 'Lightship', 'USCCC1', harbour)]);
    expect(await uidOf('other001')).toBe('other001');
    // The same title by another artist is another song.
    await storeTracks(database.db, [spotifyTrack('cover001', 'Lighthouse', 'USFFF1')]);
    expect(await uidOf('cover001')).toBe('cover001');
  });

  it('merges two songs when a later ISRC shows they are one, and redirects the old uid', async () => {
    await storeTracks(database.db, [spotifyTrack('first001', 'Paper Boats')]);
    await storeTracks(database.db, [spotifyTrack('isrc0001', 'Harbour Song', 'USDDD0000001')]);
    expect(await uidOf('first001')).toBe('first001');
    // Spotify now reports first001 with the ISRC of the other song.
    await storeTracks(database.db, [spotifyTrack('first001', 'Paper Boats', 'USDDD0000001')]);
    expect(await uidOf('first001')).toBe('isrc0001');
    const [redirect] = await database.db
      .select()
      .from(uidRedirects)
      .where(eq(uidRedirects.fromUid, 'first001'));
    expect(redirect?.toUid).toBe('isrc0001');
  });

  it('skips local files and stores credits once', async () => {
    const stored = await storeTracks(database.db, [
      { ...spotifyTrack('x', 'Local'), id: null, is_local: true },
      spotifyTrack('credit01', 'Credits'),
      spotifyTrack('credit01', 'Credits'),
    ]);
    expect(stored).toEqual(['credit01']);
    const credits = await database.db
      .select()
      .from(trackArtists)
      .where(eq(trackArtists.trackId, 'credit01'));
    expect(credits).toEqual([{ trackId: 'credit01', position: 0, artistId: artist.id }]);
  });
});
