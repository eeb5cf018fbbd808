import type { AdminNotifications } from '@earshot/contract/admin';
import type { IgnoredList, IgnoreState } from '@earshot/contract/ignore';
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
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
 * The one rule of what does not count for a user (see docs/product.md §2, Ignored): the versions of
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

/**
 * Asks the admins to ignore it for everyone; reporting implies ignoring it oneself. A report
 * already decided stays decided (and marked reported for the user).
 */
export async function report(db: Db, userId: string, kind: IgnoreKind, key: string) {
  const known = await requireKnown(db, kind, key);
  if ((await ignoreState(db, userId, kind, known)).is_global) {
    throw new HttpError(409, 'It is already ignored for everyone');
  }
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

/**
 * The viewer's ignored artists and tracks, most recent first. Admins also see every item ignored
 * for everyone, so that they can end a global ignore.
 */
export async function ignoredList(db: Db, viewer: UserRow, isAdmin: boolean): Promise<IgnoredList> {
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
  if (isAdmin) {
    const globalOnly = await db
      .select({
        artist_id: globalIgnoredArtists.artistId,
        name: artists.name,
        reported: sql<boolean>`false`,
        is_global: sql<boolean>`true`,
      })
      .from(globalIgnoredArtists)
      .innerJoin(artists, eq(artists.id, globalIgnoredArtists.artistId))
      .where(
        sql`NOT EXISTS (SELECT 1 FROM ignored_artists i
                        WHERE i.user_id = ${viewer.id}
                          AND i.artist_id = global_ignored_artists.artist_id)`,
      )
      .orderBy(desc(globalIgnoredArtists.createdAt));
    artistRows.push(...globalOnly);
  }
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
  if (isAdmin) {
    const globalOnly = await db
      .select({
        uid: globalIgnoredTracks.uid,
        reported: sql<boolean>`false`,
        createdAt: globalIgnoredTracks.createdAt,
        is_global: sql<boolean>`true`,
        // Spelled out: drizzle leaves a lone table's columns unqualified, and a bare "uid" here
        // would name the subquery's own column.
        trackId: sql<string>`(SELECT min(id) FROM tracks t WHERE t.uid = global_ignored_tracks.uid)`,
      })
      .from(globalIgnoredTracks)
      .where(
        sql`NOT EXISTS (SELECT 1 FROM ignored_tracks i
                        WHERE i.user_id = ${viewer.id} AND i.uid = global_ignored_tracks.uid)`,
      )
      .orderBy(desc(globalIgnoredTracks.createdAt));
    trackRows.push(...globalOnly);
  }
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

/** Reports waiting for the admins, one entry per song (uid) and per artist with its count. */
export async function pendingReports(db: Db): Promise<AdminNotifications['reports']> {
  const trackRows = await db
    .select({
      uid: ignoredTracks.uid,
      report_count: sql<number>`count(*)::int`,
      // Spelled out, as in `ignoredList`.
      trackId: sql<string>`(SELECT min(id) FROM tracks t WHERE t.uid = ignored_tracks.uid)`,
    })
    .from(ignoredTracks)
    .where(and(eq(ignoredTracks.reported, true), isNull(ignoredTracks.reviewedAt)))
    .groupBy(ignoredTracks.uid)
    .orderBy(desc(sql`count(*)`), ignoredTracks.uid);
  const artistRows = await db
    .select({
      artist_id: ignoredArtists.artistId,
      name: artists.name,
      report_count: sql<number>`count(*)::int`,
    })
    .from(ignoredArtists)
    .innerJoin(artists, eq(artists.id, ignoredArtists.artistId))
    .where(and(eq(ignoredArtists.reported, true), isNull(ignoredArtists.reviewedAt)))
    .groupBy(ignoredArtists.artistId, artists.name)
    .orderBy(desc(sql`count(*)`), artists.name);
  const summaries = await trackSummaries(
    db,
    trackRows.map((row) => row.trackId),
  );
  return {
    tracks: trackRows.flatMap((row) => {
      const track = summaries.get(row.trackId);
      if (!track) return [];
      const artistList = track.artists.map((artist) => ({ id: artist.id, name: artist.name }));
      return [
        { uid: row.uid, title: track.title, artists: artistList, report_count: row.report_count },
      ];
    }),
    artists: artistRows,
  };
}

/** How an admin's history names a song or an artist: "Title — Artist, Artist" or the name. */
async function labelOf(db: Db | Tx, kind: IgnoreKind, key: string): Promise<string> {
  if (kind === 'artist') {
    const [artist] = await db
      .select({ name: artists.name })
      .from(artists)
      .where(eq(artists.id, key));
    return artist?.name ?? key;
  }
  const result = await db.execute<{ label: string | null }>(sql`
    SELECT t.name || coalesce(' — ' || (SELECT string_agg(a.name, ', ' ORDER BY ta.position)
                                         FROM track_artists ta JOIN artists a ON a.id = ta.artist_id
                                         WHERE ta.track_id = t.id), '') AS label
    FROM tracks t WHERE t.uid = ${key} ORDER BY t.id LIMIT 1`);
  return result.rows[0]?.label ?? key;
}

export interface ReviewOutcome {
  /** The uid or artist id the decision applies to. */
  key: string;
  label: string;
  /** How many users' pending reports it closed. */
  reportCount: number;
}

/**
 * Closes the pending reports of a song or an artist; approving also ignores it for everyone.
 * 404 when nothing is pending: a decision needs a report to decide on.
 */
export async function reviewReports(
  tx: Tx,
  kind: IgnoreKind,
  key: string,
  approve: boolean,
): Promise<ReviewOutcome> {
  const known = kind === 'track' ? await resolveUid(tx, key) : key;
  const closed =
    kind === 'track'
      ? await tx
          .update(ignoredTracks)
          .set({ reviewedAt: sql`now()` })
          .where(
            and(
              eq(ignoredTracks.uid, known),
              eq(ignoredTracks.reported, true),
              isNull(ignoredTracks.reviewedAt),
            ),
          )
          .returning({ userId: ignoredTracks.userId })
      : await tx
          .update(ignoredArtists)
          .set({ reviewedAt: sql`now()` })
          .where(
            and(
              eq(ignoredArtists.artistId, known),
              eq(ignoredArtists.reported, true),
              isNull(ignoredArtists.reviewedAt),
            ),
          )
          .returning({ userId: ignoredArtists.userId });
  if (closed.length === 0) {
    throw new HttpError(404, `No pending report for this ${kind}`);
  }
  if (approve) {
    if (kind === 'track') {
      await tx.insert(globalIgnoredTracks).values({ uid: known }).onConflictDoNothing();
    } else {
      await tx.insert(globalIgnoredArtists).values({ artistId: known }).onConflictDoNothing();
    }
  }
  return { key: known, label: await labelOf(tx, kind, known), reportCount: closed.length };
}

/** Ends a global ignore; users who ignored it themselves keep their own ignore. */
export async function removeGlobalIgnore(
  tx: Tx,
  kind: IgnoreKind,
  key: string,
): Promise<ReviewOutcome> {
  const known = kind === 'track' ? await resolveUid(tx, key) : key;
  const removed =
    kind === 'track'
      ? await tx
          .delete(globalIgnoredTracks)
          .where(eq(globalIgnoredTracks.uid, known))
          .returning({ key: globalIgnoredTracks.uid })
      : await tx
          .delete(globalIgnoredArtists)
          .where(eq(globalIgnoredArtists.artistId, known))
          .returning({ key: globalIgnoredArtists.artistId });
  if (removed.length === 0) {
    throw new HttpError(404, `This ${kind} is not ignored for everyone`);
  }
  return { key: known, label: await labelOf(tx, kind, known), reportCount: 0 };
}
