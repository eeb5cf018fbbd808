import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { tracks } from '../db/schema/catalog';
import { savedTracks } from '../db/schema/library';
import { HttpError } from '../errors';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { SpotifyError } from '../spotify/errors';

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
    if (error instanceof SpotifyError) {
      const action = liked ? 'save the track to' : 'remove the track from';
      throw new HttpError(502, `Spotify could not ${action} your library: ${error.message}`);
    }
    throw error;
  }
  if (liked) {
    await db
      .insert(savedTracks)
      .values(toChange.map((trackId) => ({ userId, trackId, addedAt: sql`now()` })))
      .onConflictDoNothing();
  } else {
    await db
      .delete(savedTracks)
      .where(and(eq(savedTracks.userId, userId), inArray(savedTracks.trackId, toChange)));
  }
  return liked;
}
