import type { ArtistFollowState } from '@earshot/contract/catalogue';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { artists } from '../db/schema/catalog';
import { followedArtists } from '../db/schema/library';
import { HttpError } from '../errors';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { spotifyCouldNotChange } from '../spotify/errors';

/**
 * Follows or unfollows an artist on the user's Spotify account first and then in Earshot's
 * mirror, so a Spotify failure changes neither side. Answers the final state.
 */
export async function setArtistFollowed(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  userId: string,
  artistId: string,
  followed: boolean,
): Promise<ArtistFollowState> {
  const [artist] = await db
    .select({ id: artists.id })
    .from(artists)
    .where(eq(artists.id, artistId));
  if (!artist) throw new HttpError(404, 'Artist not found');
  try {
    await spotify.setArtistFollowed(auth, artistId, followed);
  } catch (error) {
    if (spotifyCouldNotChange(error)) {
      const action = followed ? 'follow' : 'unfollow';
      throw new HttpError(502, `Spotify could not ${action} the artist: ${error.message}`);
    }
    throw error;
  }
  if (followed) {
    await db.insert(followedArtists).values({ userId, artistId }).onConflictDoNothing();
  } else {
    await db
      .delete(followedArtists)
      .where(and(eq(followedArtists.userId, userId), eq(followedArtists.artistId, artistId)));
  }
  return { artist_id: artistId, is_followed: followed };
}
