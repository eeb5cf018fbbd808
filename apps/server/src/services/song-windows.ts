import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';

/*
 * Each user's plays of each song over the last N days, for the windows whose grouping per call
 * would cost too much (decision 0039). The plays trigger counts a new play in a window when its
 * day is after the window's floor (migration 0030); reading the window first rolls it forward to
 * today: the days that left it since its last read are subtracted, read from the per-track days.
 * A window is created by its user's first read, so nobody else's plays cost a write.
 */

/** The windows kept this way; shorter ones are grouped per call from the per-track days. */
export const ROLLED_WINDOW_DAYS: readonly number[] = [90, 365];

/**
 * Past this many days since its last read, a window is counted again rather than rolled: the
 * per-track days keep 400 days, so the days to subtract are still all there.
 */
const ROLL_AT_MOST_DAYS = 30;

/**
 * The per-track days of `userId` after `after` (and up to `through`), with each day's song: its
 * track's song, read from the small index of versions (decision 0016).
 */
function daysBySong(userId: string, after: string, through?: string): SQL {
  return sql`SELECT coalesce(ver.uid, d.track_id) AS uid, sum(d.plays)::int AS plays
    FROM user_track_days d
    LEFT JOIN tracks ver ON ver.id = d.track_id AND ver.uid <> ver.id
    WHERE d.user_id = ${userId} AND d.day > ${after}::date
      ${through === undefined ? sql`` : sql`AND d.day <= ${through}::date`}
    GROUP BY 1`;
}

/**
 * Brings `userId`'s window of `days` days to today (creating it at the first read) and answers
 * its floor: the window counts the plays of the days after it.
 */
export async function rollSongWindow(db: Db, userId: string, days: number): Promise<string> {
  const target = sql`(now() AT TIME ZONE 'UTC')::date - ${days}::int`;
  const current = await db.execute<{ floor: string; target: string }>(
    sql`SELECT floor::text, (${target})::text AS target FROM user_song_window_floors
        WHERE user_id = ${userId} AND days = ${days}`,
  );
  const known = current.rows[0];
  if (known && known.floor === known.target) return known.floor;
  return db.transaction(async (tx) => {
    // Holds back this user's plays (their foreign-key check takes KEY SHARE on the same row)
    // and a song move's recount until the window is counted up to its new floor.
    await tx.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
    const locked = await tx.execute<{ floor: string | null; target: string; recount: boolean }>(
      sql`SELECT f.floor::text, (${target})::text AS target,
                 f.floor IS NULL OR f.floor < (${target}) - ${ROLL_AT_MOST_DAYS}::int AS recount
          FROM (SELECT 1) one
          LEFT JOIN user_song_window_floors f ON f.user_id = ${userId} AND f.days = ${days}`,
    );
    const { floor, target: newFloor, recount } = locked.rows[0]!;
    if (floor === newFloor) return newFloor;
    if (recount) {
      await tx.execute(
        sql`DELETE FROM user_song_windows WHERE user_id = ${userId} AND days = ${days}`,
      );
      await tx.execute(sql`
        INSERT INTO user_song_windows (user_id, days, uid, plays)
        SELECT ${userId}, ${days}, counted.uid, counted.plays
        FROM (${daysBySong(userId, newFloor)}) counted`);
    } else {
      await tx.execute(sql`
        UPDATE user_song_windows w SET plays = w.plays - gone.plays
        FROM (${daysBySong(userId, floor!, newFloor)}) gone
        WHERE w.user_id = ${userId} AND w.days = ${days} AND w.uid = gone.uid`);
      await tx.execute(sql`DELETE FROM user_song_windows
        WHERE user_id = ${userId} AND days = ${days} AND plays <= 0`);
    }
    await tx.execute(sql`
      INSERT INTO user_song_window_floors (user_id, days, floor)
      VALUES (${userId}, ${days}, ${newFloor}::date)
      ON CONFLICT (user_id, days) DO UPDATE SET floor = excluded.floor`);
    return newFloor;
  });
}

/** `userId`'s songs in their window of `days` days as `(uid, plays)` rows, most played first. */
export function songWindowPlays(userId: string, days: number): SQL {
  return sql`SELECT w.uid, w.plays FROM user_song_windows w
    WHERE w.user_id = ${userId} AND w.days = ${days}
    ORDER BY w.plays DESC NULLS LAST, w.uid`;
}
