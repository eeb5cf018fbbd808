import type { SuggestionItem, SuggestionList } from '@earshot/contract/suggestions';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { newReleaseSince } from './followed-releases';
import { trackSummaries } from './tracks';
import { friendIdsQuery } from './social';
import { ROLLED_WINDOW_DAYS, rollSongWindow, songWindowPlays } from './song-windows';

/*
 * The four Discover sections (docs/product.md, Discover). Each reads the aggregates the play
 * triggers keep (per song, per track and day, per album) rather than plays, so a call costs the
 * same for a million plays as for a hundred. Each ranks or draws its candidates first and only
 * then checks them (not liked, not ignored, …), in that order, until it has enough: the checks
 * run for a few rows, not for every candidate. By construction no track can be in two sections:
 * Like Your On-Repeat holds played songs the viewer has not liked, Rediscover Likes liked ones,
 * the other two songs never played nor liked, and Popular with Friends leaves out the songs of
 * which any version is on a new release of a followed artist (a single friends play, now on the
 * album), which are New from Followed Artists' own.
 */

/** Popular with Friends looks this far back. */
export const FRIENDS_WINDOW_DAYS = 30;
/**
 * Popular with Friends reads each friend's songs last played in its window, at most this many,
 * the latest first: a heavy listener brings as many candidates as a few days of theirs, and
 * cannot crowd out the songs several friends share (decision 0040).
 */
export const FRIENDS_RECENT_SONGS = 100;
/** A friend's play or like counts half as much this many days later. */
const FRIENDS_HALF_LIFE_DAYS = 7;
/** Rediscover Likes: a liked song not played for this long. */
export const REDISCOVER_AFTER_DAYS = 90;

/** The sections read a few more rows than asked, to keep one track per song. */
const overfetch = (limit: number) => limit * 2;

/**
 * Keeps `t` (a `tracks` row) only if neither the viewer nor the admins ignored its song or any
 * artist credited on it.
 */
function notIgnored(viewerId: string): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ignored_tracks i WHERE i.user_id = ${viewerId} AND i.uid = t.uid)
    AND NOT EXISTS (SELECT 1 FROM global_ignored_tracks g WHERE g.uid = t.uid)
    AND NOT EXISTS (
      SELECT 1 FROM track_artists ta
      WHERE ta.track_id = t.id
        AND (EXISTS (SELECT 1 FROM ignored_artists ia
                     WHERE ia.user_id = ${viewerId} AND ia.artist_id = ta.artist_id)
             OR EXISTS (SELECT 1 FROM global_ignored_artists ga WHERE ga.artist_id = ta.artist_id)))`;
}

/** Whether the viewer likes a version of song `uid`. */
function likedSong(viewerId: string, uid: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM tracks v JOIN saved_tracks st ON st.track_id = v.id
                     WHERE v.uid = ${uid} AND st.user_id = ${viewerId})`;
}

/** Whether the viewer ever played song `uid`. */
function playedSong(viewerId: string, uid: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM user_song_stats played
                     WHERE played.user_id = ${viewerId} AND played.uid = ${uid})`;
}

/** A `YYYY`, `YYYY-MM` or `YYYY-MM-DD` release date as the first day of its period. */
function releaseDaySql(date: SQL): SQL {
  return sql`(CASE length(${date}) WHEN 4 THEN ${date} || '-01-01'
                                   WHEN 7 THEN ${date} || '-01' ELSE ${date} END)`;
}

/** Whether album `albumId` is a new release of an artist the viewer follows. */
function followedNewRelease(viewerId: string, albumId: SQL, since: string): SQL {
  return sql`EXISTS (
    SELECT 1 FROM album_artists aa
    JOIN followed_artists fa ON fa.artist_id = aa.artist_id AND fa.user_id = ${viewerId}
    JOIN albums al ON al.id = aa.album_id
    WHERE aa.album_id = ${albumId} AND ${releaseDaySql(sql`al.release_date`)} >= ${since})`;
}

/**
 * A weighted random draw (Efraimidis–Spirakis): ordered by it, each row comes first with a
 * chance proportional to `weight`, so refreshing gives another selection that still favours the
 * best. Each row's draw is independent, so drawing before the checks and keeping the first rows
 * that pass them selects exactly as checking first would.
 */
function weightedDraw(weight: SQL): SQL {
  return sql`-ln(1 - random()) / greatest((${weight})::float8, 1e-9)`;
}

/**
 * Joins `alias`, the version row of track `trackId` when it is not its song's first version
 * (the song's uid is its first version's id): `coalesce(alias.uid, trackId)` is the track's song.
 * Read from the small index of such versions (migration 0021) rather than from every track.
 */
function versionOf(alias: string, trackId: SQL): SQL {
  const v = sql.raw(alias);
  return sql`LEFT JOIN tracks ${v} ON ${v}.id = ${trackId} AND ${v}.uid <> ${v}.id`;
}

/**
 * Runs a section's query with enough memory for its hashes and sorts (tens of thousands of rows
 * for a heavy listener; the default 4 MB spills them to disk) and without JIT compilation, which
 * takes longer than these index-driven statements run.
 */
async function candidates<C extends Candidate>(db: Db, query: SQL): Promise<C[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL work_mem = '32MB'`);
    await tx.execute(sql`SET LOCAL jit = off`);
    return (await tx.execute<C>(query)).rows as C[];
  });
}

interface Candidate extends Record<string, unknown> {
  track_id: string;
  uid: string;
}

/** Items in the candidates' order, one per song, at most `limit`, with their reasons. */
async function toItems<C extends Candidate>(
  db: Db,
  candidates: C[],
  limit: number,
  liked: boolean,
  reason: (candidate: C) => string,
): Promise<SuggestionList> {
  const seen = new Set<string>();
  const chosen = candidates.filter((c) => !seen.has(c.uid) && seen.add(c.uid)).slice(0, limit);
  const tracks = await trackSummaries(
    db,
    chosen.map((c) => c.track_id),
  );
  const items = chosen.flatMap((candidate): SuggestionItem[] => {
    const track = tracks.get(candidate.track_id);
    return track ? [{ track, liked, reason: reason(candidate) }] : [];
  });
  return { items };
}

function times(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count.toLocaleString('en')} times`;
}

const monthYear = (date: Date) =>
  date.toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });

interface FollowedCandidate extends Candidate {
  album_type: string | null;
  artist_name: string;
}

function releaseKind(albumType: string | null): string {
  return albumType === 'single' || albumType === 'album' || albumType === 'compilation'
    ? albumType
    : 'release';
}

/**
 * New from Followed Artists: one track, at random, of each release of the last 180 days by an
 * artist the viewer follows (as mirrored from Spotify) from which they played nothing; the newer
 * the release, the likelier it is picked.
 */
export async function unheardFromFollowed(
  db: Db,
  viewerId: string,
  limit: number,
): Promise<SuggestionList> {
  const since = newReleaseSince(new Date());
  const rows = await candidates<FollowedCandidate>(
    db,
    sql`
    WITH fresh AS MATERIALIZED (
      SELECT DISTINCT ON (al.id) al.id AS album_id, al.album_type, al.release_date,
             fa.artist_id
      FROM followed_artists fa
      JOIN album_artists aa ON aa.artist_id = fa.artist_id
      JOIN albums al ON al.id = aa.album_id
      WHERE fa.user_id = ${viewerId}
        AND ${releaseDaySql(sql`al.release_date`)} >= ${since}
        AND NOT EXISTS (SELECT 1 FROM user_album_stats s
                        WHERE s.user_id = ${viewerId} AND s.album_id = al.id)
      ORDER BY al.id, aa.position
    ),
    picks AS (
      SELECT DISTINCT ON (f.album_id) f.album_id, f.album_type, f.release_date, f.artist_id,
             t.id AS track_id, t.uid
      FROM fresh f JOIN tracks t ON t.album_id = f.album_id
      WHERE NOT ${playedSong(viewerId, sql`t.uid`)}
        AND NOT ${likedSong(viewerId, sql`t.uid`)}
        AND ${notIgnored(viewerId)}
      ORDER BY f.album_id, random()
    )
    SELECT p.track_id, p.uid, p.album_type, ar.name AS artist_name
    FROM picks p JOIN artists ar ON ar.id = p.artist_id
    ORDER BY ${weightedDraw(
      sql`1.0 / (1 + greatest(0, current_date - ${releaseDaySql(sql`p.release_date`)}::date) / 30.0)`,
    )}
    LIMIT ${overfetch(limit)}`,
  );
  return toItems(
    db,
    rows,
    limit,
    false,
    (c) => `New ${releaseKind(c.album_type)} from ${c.artist_name}, an artist you follow`,
  );
}

interface OnRepeatCandidate extends Candidate {
  plays: number;
}

/**
 * Like Your On-Repeat: the songs the viewer played most in the last `days` days (UTC days,
 * today included) or of all time, that they have not liked; most played first. Each song is
 * shown as the version they played most.
 */
export async function likeOnRepeat(
  db: Db,
  viewerId: string,
  limit: number,
  days: number | undefined,
): Promise<SuggestionList> {
  // The window's first day is the day after `windowStart`: today's date (UTC) less `days`, or
  // the floor of a rolled window, which reading it has brought to the same day.
  const windowStart =
    days !== undefined && ROLLED_WINDOW_DAYS.includes(days)
      ? sql`${await rollSongWindow(db, viewerId, days)}::date`
      : sql`(now() AT TIME ZONE 'UTC')::date - ${days ?? 0}::int`;
  // The most played version of song `s.uid` in the window, read from the (user, track, day,
  // plays) index for the first few songs only.
  const bestInWindow = sql`
    SELECT v.id AS track_id FROM tracks v
    JOIN user_track_days d ON d.user_id = ${viewerId} AND d.track_id = v.id
    WHERE v.uid = s.uid AND d.day > ${windowStart}
    GROUP BY v.id ORDER BY sum(d.plays) DESC, v.id LIMIT 1`;
  // Songs in order of plays (then uid), each with its most played version. Every order names
  // NULLS LAST as the outer query does, so the planner keeps it and stops after the first few.
  const songs =
    days === undefined
      ? // Read in the order of the (user, plays DESC NULLS LAST, uid) index: only the first few
        // are looked at. The order must name NULLS LAST as the index does (plays is never
        // null), else the planner sorts every song the viewer played and finds each one's version.
        sql`
        SELECT s.uid, s.plays, best.id AS track_id
        FROM user_song_stats s
        CROSS JOIN LATERAL (
          SELECT v.id FROM tracks v
          JOIN user_track_stats uts ON uts.user_id = ${viewerId} AND uts.track_id = v.id
          WHERE v.uid = s.uid ORDER BY uts.plays DESC, v.id LIMIT 1
        ) best
        WHERE s.user_id = ${viewerId}
        ORDER BY s.plays DESC NULLS LAST, s.uid`
      : ROLLED_WINDOW_DAYS.includes(days)
        ? // Read in the order of the rolled window's (user, days, plays DESC NULLS LAST, uid) index.
          sql`
        SELECT s.uid, s.plays, best.track_id
        FROM (${songWindowPlays(viewerId, days)}) s
        CROSS JOIN LATERAL (${bestInWindow}) best`
        : // Totals per song first, in one grouping of the window's days (integer sums: a numeric
          // one costs more than the rows' reading).
          sql`
        SELECT s.uid, s.plays, best.track_id
        FROM (
          SELECT coalesce(ver.uid, d.track_id) AS uid, sum(d.plays)::int AS plays
          FROM user_track_days d ${versionOf('ver', sql`d.track_id`)}
          WHERE d.user_id = ${viewerId} AND d.day > ${windowStart}
          GROUP BY 1
          ORDER BY plays DESC NULLS LAST, uid
        ) s
        CROSS JOIN LATERAL (${bestInWindow}) best`;
  const rows = await candidates<OnRepeatCandidate>(
    db,
    sql`
    SELECT s.track_id, s.uid, s.plays::int AS plays
    FROM (${songs}) s JOIN tracks t ON t.id = s.track_id
    WHERE s.plays > 0
      AND NOT ${likedSong(viewerId, sql`s.uid`)}
      AND ${notIgnored(viewerId)}
    ORDER BY s.plays DESC NULLS LAST, s.uid
    LIMIT ${overfetch(limit)}`,
  );
  const window = days === undefined ? '' : days === 7 ? ' this week' : ` in the last ${days} days`;
  return toItems(db, rows, limit, false, (c) =>
    days === undefined ? `You played this ${times(c.plays)}` : `Played ${times(c.plays)}${window}`,
  );
}

interface FriendsCandidate extends Candidate {
  friends: number;
  liked_by_friend: boolean;
  first_friend: string;
}

/** Popular with Friends first draws among this many friends' touches per item asked for. */
const FRIENDS_TOUCHES_PER_ITEM = 20;

/**
 * Popular with Friends: songs friends played or liked in the last 30 days (each friend's 100 songs
 * played last, and their likes) that the viewer has never played nor liked. Each friend's last
 * play of a song and last like of any version (a touch) adds a weight halving every 7 days, a like
 * counting double, so songs of several friends and of this week come first; the selection is a
 * weighted draw, so refreshing gives another one. A song is shown as the version its first-named
 * friend (the latest like, else the latest play) liked, else played last.
 */
export async function friendsFavorites(
  db: Db,
  viewerId: string,
  limit: number,
): Promise<SuggestionList> {
  // Most calls find enough songs among the touches drawn first; when the checks leave too few,
  // the draw is made again over every touch, so the selection is always the exact weighted draw.
  let rows = await friendsCandidates(db, viewerId, limit, limit * FRIENDS_TOUCHES_PER_ITEM);
  if (rows.length < overfetch(limit)) rows = await friendsCandidates(db, viewerId, limit, null);
  const names = await firstNames(
    db,
    rows.map((row) => row.first_friend),
  );
  return toItems(db, rows, limit, false, (c) => {
    const verb = c.liked_by_friend ? 'Liked' : 'Played';
    const first = names.get(c.first_friend) ?? 'a friend';
    if (c.friends === 1) return `${verb} by ${first}`;
    const others = c.friends - 1;
    return `${verb} by ${first} and ${others} other friend${others === 1 ? '' : 's'}`;
  });
}

/**
 * Popular with Friends' candidates in draw order, drawn among the `touches` with the smallest
 * draws (all of them when null). A song's draw is the smallest of its touches' draws: the
 * smallest of exponential draws is the draw of their summed weight, so this is the weighted draw
 * of songs by their touches' summed weight, without grouping every touch by song (tens of
 * thousands for 150 friends); only the few songs drawn are grouped, for their reasons.
 */
async function friendsCandidates(
  db: Db,
  viewerId: string,
  limit: number,
  touches: number | null,
): Promise<FriendsCandidate[]> {
  const since = newReleaseSince(new Date());
  const windowStart = sql`now() - make_interval(days => ${FRIENDS_WINDOW_DAYS})`;
  const weight = sql`(CASE WHEN liked THEN 2 ELSE 1 END)
    * power(0.5, greatest(0, date_part('epoch', now() - at)) / ${FRIENDS_HALF_LIFE_DAYS * 86400})`;
  return candidates<FriendsCandidate>(
    db,
    sql`
    WITH friends AS MATERIALIZED (${friendIdsQuery(viewerId)}),
    -- Each friend's last play of each of their latest songs (the exact time, read backwards
    -- from the per-song aggregate's (user, last play) index) and last like of any version, in
    -- the window.
    touches AS MATERIALIZED (
      SELECT f.id AS friend_id, s.uid, s.last_played_at AS at, false AS liked
      FROM friends f CROSS JOIN LATERAL (
        SELECT s.uid, s.last_played_at FROM user_song_stats s
        WHERE s.user_id = f.id AND s.last_played_at > ${windowStart}
        ORDER BY s.last_played_at DESC LIMIT ${FRIENDS_RECENT_SONGS}
      ) s
      UNION ALL
      SELECT st.user_id, coalesce(ver.uid, st.track_id), max(st.added_at), true
      FROM saved_tracks st ${versionOf('ver', sql`st.track_id`)}
      -- From the (user, added) index: joined to the friends alone, the planner read every like.
      WHERE st.user_id = ANY(ARRAY(SELECT id FROM friends)) AND st.added_at > ${windowStart}
      GROUP BY 1, 2
    ),
    drawn AS (
      SELECT uid, ${weightedDraw(weight)} AS draw FROM touches
      ORDER BY draw LIMIT ${touches === null ? sql`ALL` : touches}
    ),
    songs AS (SELECT uid, min(draw) AS draw FROM drawn GROUP BY uid),
    reasons AS (
      SELECT uid, count(DISTINCT friend_id)::int AS friends, bool_or(liked) AS liked_by_friend,
             (array_agg(friend_id ORDER BY liked DESC, at DESC, friend_id))[1] AS first_friend
      FROM touches WHERE uid IN (SELECT uid FROM songs) GROUP BY uid
    )
    SELECT shown.track_id, s.uid, r.friends, r.liked_by_friend, r.first_friend::text
    FROM songs s JOIN reasons r ON r.uid = s.uid
    CROSS JOIN LATERAL (
      SELECT v.id AS track_id FROM tracks v
      LEFT JOIN saved_tracks st
        ON st.user_id = r.first_friend AND st.track_id = v.id AND st.added_at > ${windowStart}
      LEFT JOIN user_track_stats uts ON uts.user_id = r.first_friend AND uts.track_id = v.id
      WHERE v.uid = s.uid AND (st.track_id IS NOT NULL OR uts.last_played_at > ${windowStart})
      ORDER BY st.track_id IS NOT NULL DESC, greatest(st.added_at, uts.last_played_at) DESC, v.id
      LIMIT 1
    ) shown
    JOIN tracks t ON t.id = shown.track_id
    WHERE NOT ${playedSong(viewerId, sql`s.uid`)}
      AND NOT ${likedSong(viewerId, sql`s.uid`)}
      AND NOT EXISTS (SELECT 1 FROM tracks nv WHERE nv.uid = s.uid
                      AND ${followedNewRelease(viewerId, sql`nv.album_id`, since)})
      AND ${notIgnored(viewerId)}
    ORDER BY s.draw
    LIMIT ${overfetch(limit)}`,
  );
}

/** What a reason calls a user: their first name, else their username. */
async function firstNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const result = await db.execute<{ id: string; name: string; username: string }>(sql`
    SELECT id::text AS id, name, username FROM users
    WHERE id = ANY(${sql.param([...new Set(ids)])}::uuid[])`);
  return new Map(
    result.rows.map((row) => [row.id, row.name.trim().split(/\s+/)[0] || row.username]),
  );
}

interface RediscoverCandidate extends Candidate {
  plays: number;
  last_played_at: Date | string | null;
  added_at: Date | string;
}

/**
 * Rediscover Likes: liked songs the viewer has not played for 90 days (or never, as far as
 * Earshot knows), drawn at random with a weight of one more than their plays, so the ones once
 * played most come first more often. The last play of any version is the song's aggregate's.
 */
export async function rediscoverLikes(
  db: Db,
  viewerId: string,
  limit: number,
): Promise<SuggestionList> {
  const rows = await candidates<RediscoverCandidate>(
    db,
    sql`
    WITH liked AS (
      SELECT DISTINCT ON (uid) uid, track_id, added_at
      FROM (
        SELECT coalesce(ver.uid, st.track_id) AS uid, st.track_id, st.added_at
        FROM saved_tracks st ${versionOf('ver', sql`st.track_id`)}
        WHERE st.user_id = ${viewerId}
      ) l
      ORDER BY uid, added_at DESC
    ),
    resting AS (
      SELECT l.track_id, l.uid, l.added_at, coalesce(s.plays, 0) AS plays, s.last_played_at,
             ${weightedDraw(sql`coalesce(s.plays, 0) + 1`)} AS draw
      FROM liked l
      -- A key lookup per liked song (LIMIT keeps it one): joined as a whole, the planner hashes
      -- every song the viewer played (64,000 heap rows in the bench) for 5,000 likes.
      LEFT JOIN LATERAL (
        SELECT s.plays, s.last_played_at FROM user_song_stats s
        WHERE s.user_id = ${viewerId} AND s.uid = l.uid LIMIT 1
      ) s ON true
      WHERE s.last_played_at IS NULL
         OR s.last_played_at < now() - make_interval(days => ${REDISCOVER_AFTER_DAYS})
    )
    SELECT h.track_id, h.uid, h.plays::int AS plays, h.last_played_at, h.added_at
    FROM (SELECT * FROM resting ORDER BY draw) h
    JOIN tracks t ON t.id = h.track_id
    WHERE ${notIgnored(viewerId)}
    ORDER BY h.draw
    LIMIT ${overfetch(limit)}`,
  );
  return toItems(db, rows, limit, true, (c) =>
    c.plays > 0 && c.last_played_at
      ? `You played this ${times(c.plays)}, last in ${monthYear(new Date(c.last_played_at))}`
      : `You liked this in ${monthYear(new Date(c.added_at))}, not played lately`,
  );
}
