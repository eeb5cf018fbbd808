import { inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { artists, tracks } from '../db/schema/catalog';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { storeArtists, storeTracks } from './catalog';

/** One batch lookup's worth. */
const ENRICH_BATCH = 50;

/**
 * `ids` as a subquery that locks their rows in id order, the order in which syncs write
 * catalogue rows: an update that locked them in scan order deadlocked with a concurrent sync.
 */
const inIdOrder = (db: Db, table: typeof artists | typeof tracks, ids: string[]) =>
  db
    .select({ id: table.id })
    .from(table)
    .where(inArray(table.id, ids))
    .orderBy(table.id)
    .for('update');

/**
 * Looks up a batch of `table`'s rows still waiting for their full object (oldest first), stores
 * what `fetchAndStore` gets for their ids, and marks them looked up, found or not, so ids Spotify
 * no longer knows are not asked for again. Returns how many were looked up; 0: nothing waits.
 */
async function enrichWaiting(
  db: Db,
  table: typeof artists | typeof tracks,
  fetchAndStore: (ids: string[]) => Promise<unknown>,
): Promise<number> {
  const waiting = await db
    .select({ id: table.id })
    .from(table)
    .where(isNull(table.enrichedAt))
    .orderBy(table.updatedAt)
    .limit(ENRICH_BATCH);
  if (waiting.length === 0) return 0;
  const ids = waiting.map((row) => row.id);
  await fetchAndStore(ids);
  await db
    .update(table)
    .set({ enrichedAt: sql`now()` })
    .where(inArray(table.id, inIdOrder(db, table, ids)));
  return ids.length;
}

/**
 * Full objects for artists only seen in simplified form (genres, picture, popularity where the
 * app's mode has them), with the cheapest calls the mode allows.
 */
export function enrichArtists(db: Db, spotify: SpotifyClient, auth: TokenSource) {
  return enrichWaiting(db, artists, async (ids) =>
    storeArtists(db, await spotify.artists(auth, ids)),
  );
}

/** Full objects for tracks known only from an export (names and id): album, credits, duration, ISRC. */
export function enrichTracks(db: Db, spotify: SpotifyClient, auth: TokenSource) {
  return enrichWaiting(db, tracks, async (ids) => storeTracks(db, await spotify.tracks(auth, ids)));
}

/** Whether any track or artist waits for its full object from Spotify. */
export async function catalogAwaitsEnrichment(db: Db): Promise<boolean> {
  const result = await db.execute<{ waiting: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM tracks WHERE enriched_at IS NULL)
        OR EXISTS (SELECT 1 FROM artists WHERE enriched_at IS NULL) AS waiting`);
  return result.rows[0]?.waiting ?? false;
}
