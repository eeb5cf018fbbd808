import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@earshot/contract/errors';
import { followedArtists, savedTracks } from '../src/db/schema/library';
import { tokenSourceFor } from '../src/services/spotify-tokens';
import { syncLibrary } from '../src/services/sync-library';
import { startHarness, type Harness, type Viewer } from './support/harness';

// A change a user makes in Spotify (a like, a follow) while Spotify rate limits it for longer
// than Earshot waits: the user is told Spotify is busy and for how long, and nothing changes.
// A long rate limit parks the endpoint for the whole app, so these share a harness of their own.
describe('changes made in Spotify while it rate limits them', () => {
  let harness: Harness;
  let mara: Viewer;
  const limit = (path: string) =>
    harness.control('PUT', '/faults', {
      seed: 1,
      rules: [{ type: 'rate-limit', rate: 1, retryAfterSec: 7200, path }],
    });
  const expectBusy = (answer: Awaited<ReturnType<Harness['request']>>) => {
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('7200');
    expect(answer.json<ErrorBody>()).toEqual({
      detail: 'Spotify is busy. Please try again in 7200 seconds.',
    });
  };

  beforeAll(async () => {
    harness = await startHarness({ sandbox: { world: createWorld() } });
    mara = await harness.signIn('maralindqvist');
    const auth = tokenSourceFor(harness.database.db, harness.cipher, harness.spotify, mara.id);
    await syncLibrary(harness.database.db, harness.spotify, auth, mara.id);
  });
  afterAll(() => harness.close());

  it('an unlike is told Spotify is busy, and changes nothing', async () => {
    const [liked] = await harness.database.db
      .select({ trackId: savedTracks.trackId })
      .from(savedTracks)
      .where(eq(savedTracks.userId, mara.id))
      .limit(1);
    await limit('/v1/me/tracks');
    expectBusy(
      await harness.request(mara, 'POST', '/api/like', { uid: liked!.trackId, liked: false }),
    );
    const stored = await harness.database.db
      .select()
      .from(savedTracks)
      .where(and(eq(savedTracks.userId, mara.id), eq(savedTracks.trackId, liked!.trackId)));
    expect(stored).toHaveLength(1);
  });

  it('an unfollow is told Spotify is busy, and changes nothing', async () => {
    const [followed] = await harness.database.db
      .select({ artistId: followedArtists.artistId })
      .from(followedArtists)
      .where(eq(followedArtists.userId, mara.id))
      .limit(1);
    await limit('/v1/me/following');
    expectBusy(
      await harness.request(mara, 'DELETE', `/api/spotify/follow/artist/${followed!.artistId}`),
    );
    const stored = await harness.database.db
      .select()
      .from(followedArtists)
      .where(
        and(eq(followedArtists.userId, mara.id), eq(followedArtists.artistId, followed!.artistId)),
      );
    expect(stored).toHaveLength(1);
  });
});
