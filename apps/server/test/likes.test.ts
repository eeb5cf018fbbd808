import { SandboxClock } from '@earshot/spotify-sandbox/clock';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@earshot/contract/errors';
import { tracks } from '../src/db/schema/catalog';
import { savedTrackRemovals, savedTracks } from '../src/db/schema/library';
import { tokenSourceFor } from '../src/services/spotify-tokens';
import { storeSavedTracks, syncPassStart } from '../src/services/likes';
import { syncLibrary } from '../src/services/sync-library';
import { startHarness, type Harness, type Viewer } from './support/harness';

// A like in Earshot (services/likes.ts): Spotify's library first, then Earshot's copy.
describe('POST /api/like', () => {
  let harness: Harness;
  let mara: Viewer;
  /** Two of Mara's saved tracks, newest first, made two versions of one song below. */
  let main: string;
  let other: string;
  const clock = new SandboxClock({ frozen: true });

  const like = (uid: string, liked: boolean) =>
    harness.request(mara, 'POST', '/api/like', { uid, liked });
  const auth = () => tokenSourceFor(harness.database.db, harness.cipher, harness.spotify, mara.id);
  /** The first page of Mara's saved tracks in Spotify. */
  const inSpotify = async () =>
    (await harness.spotify.savedTracks(auth())).items.map((item) => item.track.id);
  const inEarshot = async () =>
    (
      await harness.database.db
        .select({ id: savedTracks.trackId, addedAt: savedTracks.addedAt })
        .from(savedTracks)
        .where(
          and(eq(savedTracks.userId, mara.id), sql`${savedTracks.trackId} IN (${main}, ${other})`),
        )
    ).sort((a, b) => a.id.localeCompare(b.id));
  const removals = async () =>
    (
      await harness.database.db
        .select({ id: savedTrackRemovals.trackId })
        .from(savedTrackRemovals)
        .where(eq(savedTrackRemovals.userId, mara.id))
    )
      .map((row) => row.id)
      .sort();
  const faults = (rules: unknown[]) => harness.control('PUT', '/faults', { seed: 1, rules });

  beforeAll(async () => {
    harness = await startHarness({ sandbox: { world: createWorld(), clock } });
    mara = await harness.signIn('maralindqvist');
    await syncLibrary(harness.database.db, harness.spotify, auth(), mara.id);
    [main, other] = (await inSpotify()) as [string, string];
  });
  afterAll(() => harness.close());
  // Each test starts with both versions of one song saved on both sides, and no removals.
  beforeEach(async () => {
    const db = harness.database.db;
    await harness.control('DELETE', '/faults');
    await harness.spotify.setTracksSaved(auth(), [main, other], true);
    await db
      .update(tracks)
      .set({ uid: main })
      .where(sql`${tracks.id} IN (${main}, ${other})`);
    await db.delete(savedTrackRemovals).where(eq(savedTrackRemovals.userId, mara.id));
    await db
      .insert(savedTracks)
      .values([main, other].map((trackId) => ({ userId: mara.id, trackId, addedAt: new Date(0) })))
      .onConflictDoNothing();
  });

  it('answers 404 for a song Earshot does not know', async () => {
    const answer = await like('noSuchSong', true);
    expect(answer.statusCode).toBe(404);
    expect(answer.json<ErrorBody>()).toEqual({ detail: 'Track not found' });
  });

  it('unlikes every saved version of the song, in Spotify and in Earshot', async () => {
    const answer = await like(main, false);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ uid: main, liked: false });
    expect(await inSpotify()).not.toContain(main);
    expect(await inSpotify()).not.toContain(other);
    expect(await inEarshot()).toEqual([]);
    expect(await removals()).toEqual([main, other].sort());
  });

  it("likes the song's main version only, dated now, and forgets its removal", async () => {
    expect((await like(main, false)).statusCode).toBe(200);
    const before = await syncPassStart(harness.database.db);
    const answer = await like(main, true);
    expect(answer.json()).toEqual({ uid: main, liked: true });
    expect((await inSpotify())[0]).toBe(main);
    expect(await inSpotify()).not.toContain(other);
    const stored = await inEarshot();
    expect(stored.map((row) => row.id)).toEqual([main]);
    expect(stored[0]!.addedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(await removals()).toEqual([other]);
  });

  it('changes nothing, and asks Spotify nothing, when the song already is as asked', async () => {
    await faults([{ type: 'server-error', rate: 1, path: '/v1/me/tracks' }]);
    expect((await like(main, true)).json()).toEqual({ uid: main, liked: true });
    await harness.database.db
      .delete(savedTracks)
      .where(and(eq(savedTracks.userId, mara.id), eq(savedTracks.trackId, main)));
    await harness.database.db
      .delete(savedTracks)
      .where(and(eq(savedTracks.userId, mara.id), eq(savedTracks.trackId, other)));
    expect((await like(main, false)).json()).toEqual({ uid: main, liked: false });
  });

  it('saves the first version when no version carries the song’s uid as its id', async () => {
    expect((await like(main, false)).statusCode).toBe(200);
    await harness.database.db
      .update(tracks)
      .set({ uid: 'mergedSong' })
      .where(sql`${tracks.id} IN (${main}, ${other})`);
    expect((await like('mergedSong', true)).json()).toEqual({ uid: 'mergedSong', liked: true });
    const stored = (await inEarshot()).map((row) => row.id);
    expect(stored).toHaveLength(1);
    expect(await inSpotify()).toContain(stored[0]);
  });

  it('keeps both sides as they were when Spotify fails, and says which way it failed', async () => {
    await faults([{ type: 'server-error', rate: 1, path: '/v1/me/tracks' }]);
    const unlike = await like(main, false);
    expect(unlike.statusCode).toBe(502);
    expect(unlike.json<ErrorBody>().detail).toMatch(
      /^Spotify could not remove the track from your library: /,
    );
    expect((await inEarshot()).map((row) => row.id)).toEqual([main, other].sort());
    expect(await removals()).toEqual([]);

    await harness.control('DELETE', '/faults');
    expect((await like(main, false)).statusCode).toBe(200);
    await faults([{ type: 'server-error', rate: 1, path: '/v1/me/tracks' }]);
    const liked = await like(main, true);
    expect(liked.statusCode).toBe(502);
    expect(liked.json<ErrorBody>().detail).toMatch(
      /^Spotify could not save the track to your library: /,
    );
    expect(await inEarshot()).toEqual([]);
    await harness.control('DELETE', '/faults');
    expect(await inSpotify()).not.toContain(main);
  });

  it('remembers a removal for a day, then lets it go at the next unlike', async () => {
    await harness.database.db.insert(savedTrackRemovals).values([
      { userId: mara.id, trackId: 'removedTwoDaysAgo', removedAt: sql`now() - interval '2 days'` },
      { userId: mara.id, trackId: 'removedLastNight', removedAt: sql`now() - interval '23 hours'` },
    ]);
    expect((await like(main, false)).statusCode).toBe(200);
    expect(await removals()).toEqual([main, other, 'removedLastNight'].sort());
  });

  it("stores a sync's page without what was unliked since the pass began", async () => {
    const db = harness.database.db;
    const passStartedAt = new Date(Date.now() - 60_000);
    expect((await like(main, false)).statusCode).toBe(200);
    // Every track of this page was unliked since: nothing is stored (and nothing fails).
    await storeSavedTracks(db, mara.id, [{ trackId: main, addedAt: new Date() }], passStartedAt);
    expect(await inEarshot()).toEqual([]);
    // A pass that began after the unlike stores what Spotify says.
    const addedAt = new Date('2026-01-02T03:04:05Z');
    await storeSavedTracks(db, mara.id, [{ trackId: other, addedAt }], new Date(Date.now() + 1000));
    expect(await inEarshot()).toEqual([{ id: other, addedAt }]);
  });

  // Only PostgreSQL has other connections to interleave with (the PostgreSQL pass).
  it.runIf(process.env.TEST_DATABASE_URL)(
    "takes the user's lock, so a sync's store and an unlike never interleave",
    async () => {
      const db = harness.database.db;
      const waiting = async () =>
        (
          await harness.database.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks
             WHERE locktype = 'advisory' AND NOT granted AND database = (
               SELECT oid FROM pg_database WHERE datname = current_database())`,
          )
        ).rows[0]!.n;
      const holdLock = async () => {
        const client = await harness.database.pool.connect();
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `saved_tracks:${mara.id}`,
        ]);
        return client;
      };
      const passStartedAt = await syncPassStart(db);
      // An unlike of the main version between its two writes, holding the user's lock.
      const unlike = await holdLock();
      try {
        await unlike.query('DELETE FROM saved_tracks WHERE user_id = $1 AND track_id = $2', [
          mara.id,
          main,
        ]);
        // A sync's page read before it waits, then sees the removal instead of no row at all.
        const stored = storeSavedTracks(
          db,
          mara.id,
          [{ trackId: main, addedAt: new Date('2026-01-02T03:04:05Z') }],
          passStartedAt,
        );
        await expect.poll(waiting).toBe(1);
        await unlike.query(
          'INSERT INTO saved_track_removals (user_id, track_id, removed_at) VALUES ($1, $2, now())',
          [mara.id, main],
        );
        await unlike.query('COMMIT');
        await stored;
      } finally {
        unlike.release();
      }
      expect((await inEarshot()).map((row) => row.id)).toEqual([other]);

      // An unlike through Earshot waits for the lock as well, once its Spotify call is done.
      const holder = await holdLock();
      try {
        const unliked = like(main, false);
        await expect.poll(waiting).toBe(1);
        expect((await inEarshot()).map((row) => row.id)).toEqual([other]);
        await holder.query('COMMIT');
        expect((await unliked).statusCode).toBe(200);
      } finally {
        holder.release();
      }
      expect(await inEarshot()).toEqual([]);
    },
  );
});
