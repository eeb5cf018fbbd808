import { SandboxClock } from '@earshot/spotify-sandbox/clock';
import { WORLD_REFERENCE_TIME } from '@earshot/spotify-sandbox/world/people';
import type { Album, World } from '@earshot/spotify-sandbox/world/model';
import { createWorld } from '@earshot/spotify-sandbox/world/world';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followedArtists } from '../src/db/schema/library';
import { artistReleaseChecks } from '../src/db/schema/releases';
import { startQueues } from '../src/jobs/queue-setup';
import { QUEUES } from '../src/jobs/queues';
import { startJobRunner } from '../src/jobs/runner';
import { createMetrics, createSpotifyHttp } from '../src/observability/metrics';
import {
  mirrorFollowedReleases,
  NEW_RELEASE_DAYS,
  RELEASE_RUN_EVERY_SEC,
  releaseRunDue,
  releasesAwaitMirroring,
} from '../src/services/followed-releases';
import { tokenSourceFor } from '../src/services/spotify-tokens';
import { syncLibrary } from '../src/services/sync-library';
import { SpotifyClient } from '../src/spotify/client';
import { SpotifyRateLimitedError } from '../src/spotify/errors';
import { startHarness, type Harness } from './support/harness';

const world: World = createWorld();
const MARA = 'maralindqvist';
const AT = WORLD_REFERENCE_TIME;
const NEW_SINCE = AT - NEW_RELEASE_DAYS * 24 * 3600_000;

/** What Spotify lists of an artist's releases of a group at `AT`: the 10 newest. */
function newestOf(artistId: string, group: 'album' | 'single'): Album[] {
  return world.albums
    .filter((a) => a.artistIds.includes(artistId) && a.albumType === group && a.releasedAt <= AT)
    .sort((a, b) => b.releasedAt - a.releasedAt || (a.id < b.id ? -1 : 1))
    .slice(0, 10);
}

async function storedAlbumIds(harness: Harness): Promise<Set<string>> {
  const result = await harness.database.db.execute<{ id: string }>(sql`SELECT id FROM albums`);
  return new Set(result.rows.map((row) => row.id));
}

async function storedTrackCounts(harness: Harness): Promise<Map<string, number>> {
  const result = await harness.database.db.execute<{ album_id: string; tracks: number }>(
    sql`SELECT album_id, count(*)::int AS tracks FROM tracks GROUP BY album_id`,
  );
  return new Map(result.rows.map((row) => [row.album_id, row.tracks]));
}

/** Runs the mirror until no followed artist is due (a run reads at most 25); artists read. */
async function mirrorAll(harness: Harness, spotify: SpotifyClient, userId: string) {
  const auth = tokenSourceFor(harness.database.db, harness.cipher, spotify, userId);
  let total = 0;
  for (;;) {
    const { artists } = await mirrorFollowedReleases(
      harness.database.db,
      spotify,
      auth,
      new Date(AT),
    );
    if (artists === 0) return total;
    total += artists;
  }
}

describe.each(['extended', 'development'] as const)(
  "followed artists' releases, mirrored in %s mode",
  (mode) => {
    let harness: Harness;
    let userId: string;
    let followed: string[];
    const clock = new SandboxClock({ at: AT, frozen: true });
    const auth = () => tokenSourceFor(harness.database.db, harness.cipher, harness.spotify, userId);
    const faults = (rules: unknown[]) => harness.control('PUT', '/faults', { seed: 1, rules });

    beforeAll(async () => {
      harness = await startHarness({ mode, sandbox: { world, clock } });
      userId = (await harness.signIn(MARA)).id;
      await syncLibrary(harness.database.db, harness.spotify, auth(), userId);
      const rows = await harness.database.db
        .select({ artistId: followedArtists.artistId })
        .from(followedArtists)
        .where(eq(followedArtists.userId, userId));
      followed = rows.map((row) => row.artistId);
    });
    afterAll(() => harness.close());

    it("stores each followed artist's newest albums and singles, and the new ones' tracks", async () => {
      expect(followed.length).toBeGreaterThan(0);
      // As if never read, whichever test ran before.
      await harness.database.db.delete(artistReleaseChecks);
      expect(await releasesAwaitMirroring(harness.database.db)).toBe(true);

      expect(await mirrorAll(harness, harness.spotify, userId)).toBe(followed.length);

      const albums = await storedAlbumIds(harness);
      const trackCounts = await storedTrackCounts(harness);
      const listed = followed.flatMap((id) => [
        ...newestOf(id, 'album'),
        ...newestOf(id, 'single'),
      ]);
      expect(listed.filter((album) => !albums.has(album.id))).toEqual([]);
      const fresh = [...new Map(listed.map((a) => [a.id, a])).values()].filter(
        (album) => album.releasedAt >= NEW_SINCE,
      );
      // The world's followed artists release often enough for this to test something.
      expect(fresh.length).toBeGreaterThan(0);
      for (const album of fresh) {
        expect(trackCounts.get(album.id), album.name).toBe(album.trackIds.length);
      }
      // Nothing is read again within a day.
      expect(await releasesAwaitMirroring(harness.database.db)).toBe(false);
      await expect(
        mirrorFollowedReleases(harness.database.db, harness.spotify, auth(), new Date(AT)),
      ).resolves.toEqual({ artists: 0, newReleases: 0, tracks: 0 });
    });

    it("waits out Spotify's short 429s and still mirrors every artist", async () => {
      await harness.database.db.delete(artistReleaseChecks);
      // Every second call for the first artist's releases is refused for a second.
      const path = `/v1/artists/${followed[0]}/albums`;
      await faults([{ type: 'rate-limit', every: 2, retryAfterSec: 1, path }]);
      const waited = async () =>
        (await harness.metrics.rateLimitWaitSeconds.get()).values[0]?.value ?? 0;
      const waitedBefore = await waited();
      try {
        expect(await mirrorAll(harness, harness.spotify, userId)).toBe(followed.length);
        expect(await waited()).toBeGreaterThan(waitedBefore);
      } finally {
        await harness.control('DELETE', '/faults');
      }
      expect(await releasesAwaitMirroring(harness.database.db)).toBe(false);
    });

    it('stops on a long 429 without losing the artists not reached, and resumes later', async () => {
      await harness.database.db.delete(artistReleaseChecks);
      await faults([{ type: 'rate-limit', rate: 1, retryAfterSec: 7200, path: '/v1/artists' }]);
      // A client of its own, whose gate the long 429 closes: the file's other tests keep theirs.
      const gated = new SpotifyClient(harness.config.spotify, createSpotifyHttp(createMetrics()));
      try {
        const error = await mirrorFollowedReleases(
          harness.database.db,
          gated,
          auth(),
          new Date(AT),
        ).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(SpotifyRateLimitedError);
        expect((error as SpotifyRateLimitedError).retryAfterSec).toBe(7200);
        // The gate now holds the endpoint: a run makes no call until Retry-After.
        await expect(
          mirrorFollowedReleases(harness.database.db, gated, auth(), new Date(AT)),
        ).rejects.toBeInstanceOf(SpotifyRateLimitedError);
      } finally {
        await harness.control('DELETE', '/faults');
      }
      expect(await releasesAwaitMirroring(harness.database.db)).toBe(true);

      // After Retry-After (a process whose gate is open), the run takes up where it stopped.
      const later = new SpotifyClient(harness.config.spotify, createSpotifyHttp(createMetrics()));
      expect(await mirrorAll(harness, later, userId)).toBe(followed.length);
      expect(await releasesAwaitMirroring(harness.database.db)).toBe(false);
    });
  },
);

describe('the release mirror job', () => {
  let harness: Harness;
  const clock = new SandboxClock({ at: AT, frozen: true });
  beforeAll(async () => {
    harness = await startHarness({ sandbox: { world, clock } });
  });
  afterAll(() => harness.close());

  it('reads 25 due artists a run, and starts runs at most once a minute', async () => {
    const { id: userId } = await harness.signIn(MARA);
    const auth = tokenSourceFor(harness.database.db, harness.cipher, harness.spotify, userId);
    await syncLibrary(harness.database.db, harness.spotify, auth, userId);
    const checked = async () =>
      (await harness.database.db.select().from(artistReleaseChecks)).length;
    const runner = await startJobRunner(harness.jobDependencies(), {
      dispatchIntervalMs: 60_000,
      concurrency: 1,
    });
    try {
      await runner.dispatch();
      await expect.poll(checked, { timeout: 60_000, interval: 250 }).toBe(25);
      // Artists are still due, but the next run waits for its minute.
      expect(await releaseRunDue(harness.database.db)).toBe(false);
      await runner.dispatch();
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await checked()).toBe(25);
      expect(await releasesAwaitMirroring(harness.database.db)).toBe(true);

      // A run queued anyway (by a process in another slot) sees the last reads and does nothing.
      const deps = harness.jobDependencies();
      const sender = await startQueues(deps.pool, deps.log);
      try {
        const jobId = await sender.send(QUEUES.mirrorReleases, {});
        expect(jobId).not.toBeNull();
        await expect
          .poll(async () => (await sender.getJobById(QUEUES.mirrorReleases, jobId ?? ''))?.state, {
            timeout: 30_000,
            interval: 250,
          })
          .toBe('completed');
      } finally {
        await sender.stop({ graceful: true, wait: true });
      }
      expect(await checked()).toBe(25);

      // A minute after the last read, the next run starts.
      await harness.database.db.update(artistReleaseChecks).set({
        checkedAt: sql`now() - make_interval(secs => ${RELEASE_RUN_EVERY_SEC + 1})`,
      });
      expect(await releaseRunDue(harness.database.db)).toBe(true);
      // Dispatched until the queue's slot (10 s) of the first run has passed.
      const dispatchedAndChecked = async () => {
        await runner.dispatch();
        return checked();
      };
      await expect.poll(dispatchedAndChecked, { timeout: 60_000, interval: 1_000 }).toBe(50);
    } finally {
      await runner.stop();
    }
  }, 120_000);
});
