import { and, eq, gte, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { tracks } from '../db/schema/catalog';
import { savedTrackRemovals, savedTracks } from '../db/schema/library';
import { HttpError } from '../errors';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { spotifyCouldNotChange } from '../spotify/errors';

// This module owns `saved_tracks` (the user's likes, mirrored from their Spotify library) and
// `saved_track_removals`: the library sync and a like in Earshot both write them through the
// functions below. A sync's store and a like take the user's lock, so they never interleave; a
// reconciling pass's drop needs none (it keeps every like added since the pass began).

/** How long an unlike is remembered: far longer than any library sync pass runs. */
const REMOVAL_KEPT = sql`interval '1 day'`;

async function lockLikes(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`saved_tracks:${userId}`}))`);
}

/**
 * When a library sync pass begins, by the database's clock: the clock that dates likes and
 * removals, which the pass is compared with (another host's clock may run ahead of it).
 */
export async function syncPassStart(db: Db): Promise<Date> {
  const result = await db.execute<{ now: Date | string }>(sql`SELECT now() AS now`);
  return new Date(result.rows[0]!.now);
}

/** When the user's newest known like was added, in ms; undefined when none is known. */
export async function newestSavedAt(db: Db, userId: string): Promise<number | undefined> {
  const [newest] = await db
    .select({ addedAt: sql<Date | null>`max(${savedTracks.addedAt})` })
    .from(savedTracks)
    .where(eq(savedTracks.userId, userId));
  return newest?.addedAt ? new Date(newest.addedAt).getTime() : undefined;
}

/**
 * Stores likes read from Spotify's library by a pass that began at `passStartedAt`, with the time
 * Spotify says each was added. A like removed in Earshot since then is not stored: Spotify may
 * have answered before the removal reached it.
 */
export async function storeSavedTracks(
  db: Db,
  userId: string,
  rows: { trackId: string; addedAt: Date }[],
  passStartedAt: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction(async (tx) => {
    await lockLikes(tx, userId);
    const removed = await tx
      .select({ trackId: savedTrackRemovals.trackId })
      .from(savedTrackRemovals)
      .where(
        and(
          eq(savedTrackRemovals.userId, userId),
          gte(savedTrackRemovals.removedAt, passStartedAt),
          inArray(
            savedTrackRemovals.trackId,
            rows.map((row) => row.trackId),
          ),
        ),
      );
    const removedIds = new Set(removed.map((row) => row.trackId));
    const kept = rows.filter((row) => !removedIds.has(row.trackId));
    if (kept.length === 0) return;
    await tx
      .insert(savedTracks)
      .values(kept.map((row) => ({ userId, ...row })))
      .onConflictDoUpdate({
        target: [savedTracks.userId, savedTracks.trackId],
        set: { addedAt: sql`excluded.added_at` },
      });
  });
}

/**
 * After a full pass over Spotify's library: drops the likes it no longer holds (`seen` are the
 * ones it does). Likes added since `passStartedAt` (made in Earshot meanwhile) stay.
 */
export async function dropSavedTracksNotSeen(
  db: Db,
  userId: string,
  seen: string[],
  passStartedAt: Date,
): Promise<void> {
  await db
    .delete(savedTracks)
    .where(
      and(
        eq(savedTracks.userId, userId),
        lt(savedTracks.addedAt, passStartedAt),
        notInArray(savedTracks.trackId, seen),
      ),
    );
}

/**
 * Likes or unlikes a song (uid) for a user, in their Spotify library first and then locally, so
 * a Spotify failure changes neither side. Liking saves the song's main version (its uid is the
 * first version Earshot saw); unliking removes every saved version. Returns the final state.
 */
export async function setLiked(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  userId: string,
  uid: string,
  liked: boolean,
): Promise<boolean> {
  const versions = await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.uid, uid));
  if (versions.length === 0) throw new HttpError(404, 'Track not found');
  const versionIds = versions.map((version) => version.id);
  const saved = await db
    .select({ trackId: savedTracks.trackId })
    .from(savedTracks)
    .where(and(eq(savedTracks.userId, userId), inArray(savedTracks.trackId, versionIds)));
  if (liked === saved.length > 0) return liked;

  const toChange = liked
    ? [versionIds.includes(uid) ? uid : versionIds[0]!]
    : saved.map((row) => row.trackId);
  try {
    await spotify.setTracksSaved(auth, toChange, liked);
  } catch (error) {
    if (spotifyCouldNotChange(error)) {
      const action = liked ? 'save the track to' : 'remove the track from';
      throw new HttpError(502, `Spotify could not ${action} your library: ${error.message}`);
    }
    throw error;
  }
  await db.transaction(async (tx) => {
    await lockLikes(tx, userId);
    if (liked) {
      await tx
        .insert(savedTracks)
        .values(toChange.map((trackId) => ({ userId, trackId, addedAt: sql`now()` })))
        .onConflictDoNothing();
      await tx
        .delete(savedTrackRemovals)
        .where(
          and(eq(savedTrackRemovals.userId, userId), inArray(savedTrackRemovals.trackId, toChange)),
        );
    } else {
      await tx
        .delete(savedTracks)
        .where(and(eq(savedTracks.userId, userId), inArray(savedTracks.trackId, toChange)));
      await tx
        .delete(savedTrackRemovals)
        .where(
          and(
            eq(savedTrackRemovals.userId, userId),
            lt(savedTrackRemovals.removedAt, sql`now() - ${REMOVAL_KEPT}`),
          ),
        );
      await tx
        .insert(savedTrackRemovals)
        .values(toChange.map((trackId) => ({ userId, trackId, removedAt: sql`now()` })))
        .onConflictDoUpdate({
          target: [savedTrackRemovals.userId, savedTrackRemovals.trackId],
          set: { removedAt: sql`excluded.removed_at` },
        });
    }
  });
  return liked;
}
