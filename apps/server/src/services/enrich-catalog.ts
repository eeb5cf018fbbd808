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
 * Fetches full objects for artists only seen in simplified form (genres, picture, popularity
 * where the app's mode has them), with the cheapest calls the mode allows. Artists Spotify no
 * longer knows are marked as looked up so they are not asked for again. Returns how many were
 * looked up; 0 means nothing is waiting.
 */
export async function enrichArtists(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
): Promise<number> {
  const waiting = await db
    .select({ id: artists.id })
    .from(artists)
    .where(isNull(artists.enrichedAt))
    .orderBy(artists.updatedAt)
    .limit(ENRICH_BATCH);
  if (waiting.length === 0) return 0;
  const ids = waiting.map((row) => row.id);
  await storeArtists(db, await spotify.artists(auth, ids));
  await db
    .update(artists)
    .set({ enrichedAt: sql`now()` })
    .where(inArray(artists.id, inIdOrder(db, artists, ids)));
  return ids.length;
}

/**
 * Fetches full objects for tracks known only from an export (names and id): album, credits,
 * duration, ISRC. Ids Spotify no longer knows are marked as looked up. Returns how many were
 * looked up; 0 means nothing is waiting.
 */
export async function enrichTracks(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
): Promise<number> {
  const waiting = await db
    .select({ id: tracks.id })
    .from(tracks)
    .where(isNull(tracks.enrichedAt))
    .orderBy(tracks.updatedAt)
    .limit(ENRICH_BATCH);
  if (waiting.length === 0) return 0;
  const ids = waiting.map((row) => row.id);
  await storeTracks(db, await spotify.tracks(auth, ids));
  await db
    .update(tracks)
    .set({ enrichedAt: sql`now()` })
    .where(inArray(tracks.id, inIdOrder(db, tracks, ids)));
  return ids.length;
}

/** Whether any track or artist waits for its full object from Spotify. */
export async function catalogAwaitsEnrichment(db: Db): Promise<boolean> {
  const result = await db.execute<{ waiting: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM tracks WHERE enriched_at IS NULL)
        OR EXISTS (SELECT 1 FROM artists WHERE enriched_at IS NULL) AS waiting`);
  return result.rows[0]?.waiting ?? false;
}
