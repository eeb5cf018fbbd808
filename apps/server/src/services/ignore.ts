import type { IgnoredList, IgnoreState } from '@earshot/contract/ignore';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { artists, tracks } from '../db/schema/catalog';
import {
  globalIgnoredArtists,
  globalIgnoredTracks,
  ignoredArtists,
  ignoredTracks,
} from '../db/schema/ignores';
import type { UserRow } from '../db/schema/users';
import { HttpError } from '../errors';
import { resolveUid } from './catalog';
import { trackSummaries } from './tracks';

export type IgnoreKind = 'track' | 'artist';

/**
 * The one rule of what does not count for a user (see docs/product.md, Ignored): the versions of
 * every song (uid) and the tracks of every artist that the user or the admins ignored. Every
 * figure that leaves out ignored items (profile stats, the Friends table's likes) uses it, so
 * they agree. `userId` is a value or a column of the surrounding query.
 */
export const ignoredTrackIds = (userId: SQL | string) => sql`
  SELECT id FROM tracks
  WHERE uid IN (SELECT uid FROM ignored_tracks WHERE user_id = ${userId}
                UNION SELECT uid FROM global_ignored_tracks)
  UNION
  SELECT track_id FROM track_artists
  WHERE artist_id IN (SELECT artist_id FROM ignored_artists WHERE user_id = ${userId}
                      UNION SELECT artist_id FROM global_ignored_artists)`;

/** A user's liked tracks that count: all but the ignored ones. */
export const countedLikes = (userId: SQL | string) => sql<number>`
  (SELECT count(*)::int FROM saved_tracks
   WHERE user_id = ${userId} AND track_id NOT IN (${ignoredTrackIds(userId)}))`;

async function requireKnown(db: Db, kind: IgnoreKind, key: string): Promise<string> {
  if (kind === 'track') {
    const uid = await resolveUid(db, key);
    const [track] = await db
      .select({ id: tracks.id })
      .from(tracks)
      .where(eq(tracks.uid, uid))
      .limit(1);
    if (!track) throw new HttpError(404, 'Track not found');
    return uid;
  }
  const [artist] = await db.select({ id: artists.id }).from(artists).where(eq(artists.id, key));
  if (!artist) throw new HttpError(404, 'Artist not found');
  return key;
}

/** Where the viewer stands with one track (uid) or artist. */
export async function ignoreState(
  db: Db,
  userId: string,
  kind: IgnoreKind,
  key: string,
): Promise<IgnoreState> {
  const own =
    kind === 'track'
      ? db
          .select({ reported: ignoredTracks.reported })
          .from(ignoredTracks)
          .where(and(eq(ignoredTracks.userId, userId), eq(ignoredTracks.uid, key)))
      : db
          .select({ reported: ignoredArtists.reported })
          .from(ignoredArtists)
          .where(and(eq(ignoredArtists.userId, userId), eq(ignoredArtists.artistId, key)));
  const global =
    kind === 'track'
      ? db
          .select({ key: globalIgnoredTracks.uid })
          .from(globalIgnoredTracks)
          .where(eq(globalIgnoredTracks.uid, key))
      : db
          .select({ key: globalIgnoredArtists.artistId })
          .from(globalIgnoredArtists)
          .where(eq(globalIgnoredArtists.artistId, key));
  const [[mine], [everyone]] = await Promise.all([own, global]);
  return { ignored: mine !== undefined, reported: mine?.reported ?? false, is_global: !!everyone };
}

export async function ignore(db: Db, userId: string, kind: IgnoreKind, key: string) {
  const known = await requireKnown(db, kind, key);
  if (kind === 'track') {
    await db.insert(ignoredTracks).values({ userId, uid: known }).onConflictDoNothing();
  } else {
    await db.insert(ignoredArtists).values({ userId, artistId: known }).onConflictDoNothing();
  }
  return ignoreState(db, userId, kind, known);
}

export async function unignore(db: Db, userId: string, kind: IgnoreKind, key: string) {
  const known = kind === 'track' ? await resolveUid(db, key) : key;
  if (kind === 'track') {
    await db
      .delete(ignoredTracks)
      .where(and(eq(ignoredTracks.userId, userId), eq(ignoredTracks.uid, known)));
  } else {
    await db
      .delete(ignoredArtists)
      .where(and(eq(ignoredArtists.userId, userId), eq(ignoredArtists.artistId, known)));
  }
  return ignoreState(db, userId, kind, known);
}

/** Asks the admins to ignore it for everyone; reporting implies ignoring it oneself. */
export async function report(db: Db, userId: string, kind: IgnoreKind, key: string) {
  const known = await requireKnown(db, kind, key);
  if (kind === 'track') {
    await db
      .insert(ignoredTracks)
      .values({ userId, uid: known, reported: true })
      .onConflictDoUpdate({
        target: [ignoredTracks.userId, ignoredTracks.uid],
        set: { reported: true },
      });
  } else {
    await db
      .insert(ignoredArtists)
      .values({ userId, artistId: known, reported: true })
      .onConflictDoUpdate({
        target: [ignoredArtists.userId, ignoredArtists.artistId],
        set: { reported: true },
      });
  }
  return ignoreState(db, userId, kind, known);
}

/** The viewer's ignored artists and tracks, most recent first. */
export async function ignoredList(db: Db, viewer: UserRow): Promise<IgnoredList> {
  const artistRows = await db
    .select({
      artist_id: ignoredArtists.artistId,
      name: artists.name,
      reported: ignoredArtists.reported,
      is_global: sql<boolean>`${globalIgnoredArtists.artistId} IS NOT NULL`,
    })
    .from(ignoredArtists)
    .innerJoin(artists, eq(artists.id, ignoredArtists.artistId))
    .leftJoin(globalIgnoredArtists, eq(globalIgnoredArtists.artistId, ignoredArtists.artistId))
    .where(eq(ignoredArtists.userId, viewer.id))
    .orderBy(desc(ignoredArtists.createdAt));
  const trackRows = await db
    .select({
      uid: ignoredTracks.uid,
      reported: ignoredTracks.reported,
      createdAt: ignoredTracks.createdAt,
      is_global: sql<boolean>`${globalIgnoredTracks.uid} IS NOT NULL`,
      // The song's first version stands for it.
      trackId: sql<string>`(SELECT min(id) FROM tracks t WHERE t.uid = ${ignoredTracks.uid})`,
    })
    .from(ignoredTracks)
    .leftJoin(globalIgnoredTracks, eq(globalIgnoredTracks.uid, ignoredTracks.uid))
    .where(eq(ignoredTracks.userId, viewer.id))
    .orderBy(desc(ignoredTracks.createdAt));
  const summaries = await trackSummaries(
    db,
    trackRows.map((row) => row.trackId),
  );
  return {
    artists: artistRows,
    tracks: trackRows.flatMap((row) => {
      const track = summaries.get(row.trackId);
      if (!track) return [];
      return [
        {
          user: { id: viewer.id, username: viewer.username, name: viewer.name },
          track: { ...track, uid: row.uid },
          liked: false,
          date: row.createdAt.toISOString(),
          play_count: 0,
          reason: null,
          context_uri: null,
          is_global: row.is_global,
          reported: row.reported,
        },
      ];
    }),
  };
}
