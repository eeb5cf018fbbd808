import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { plays } from '../src/db/schema/listening';
import { users } from '../src/db/schema/users';
import { storeTracks } from '../src/services/catalog';
import { rollSongWindow, songWindowPlays } from '../src/services/song-windows';
import { freshDatabase } from './support/database';
import { soloTrack } from './support/tracks';

/*
 * Rolled song windows (migration `song_windows`, decision 0039): whatever happened since a
 * window's last read — plays, imports of old history, days passing, songs merging — reading it
 * answers exactly the plays of each song in the days after today less the window's length.
 */

const DAY_MS = 24 * 3600_000;
const WINDOW = 365;

let database: Database;
/** Today's date (UTC) in the database. */
let today: Date;

const reef = { id: 'artistWindow0000000001', name: 'Coral Reef' };
const track = (id: string, name: string, isrc?: string) =>
  soloTrack(reef, id, { name, ...(isrc !== undefined && { isrc }) });

/** Noon (UTC) of the day `daysAgo` days before today, plus `serial` ms: one instant per play. */
const daysAgo = (days: number, serial = 0) =>
  new Date(today.getTime() - days * DAY_MS + 12 * 3600_000 + serial);

async function play(user: string, trackId: string, ...days: number[]) {
  await database.db.insert(plays).values(
    days.map((ago, i) => ({
      userId: user,
      trackId,
      playedAt: daysAgo(ago, i),
      source: 'api' as const,
    })),
  );
}

async function newUser(name: string): Promise<string> {
  const [user] = await database.db
    .insert(users)
    .values({ spotifyId: name, username: name, name })
    .returning();
  return user!.id;
}

/** The window as kept, and as the plays say it should be for the floor `floor`. */
async function windowOf(user: string, floor: string) {
  const kept = await database.db.execute<{ uid: string; plays: number }>(
    songWindowPlays(user, WINDOW),
  );
  const recounted = await database.db.execute<{ uid: string; plays: number }>(sql`
    SELECT t.uid, count(*)::int AS plays
    FROM plays p JOIN tracks t ON t.id = p.track_id
    WHERE p.user_id = ${user} AND (p.played_at AT TIME ZONE 'UTC')::date > ${floor}::date
    GROUP BY t.uid ORDER BY plays DESC, t.uid`);
  return { kept: kept.rows, recounted: recounted.rows };
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
/** The floor a window read today has: today less its length. */
const floorToday = () => isoDay(new Date(today.getTime() - WINDOW * DAY_MS));

/** Makes `user`'s window look as if it was last read `days` days ago. */
async function lastReadDaysAgo(user: string, days: number) {
  const floor = sql`(${floorToday()}::date - ${days}::int)`;
  await database.db.execute(sql`
    DELETE FROM user_song_windows WHERE user_id = ${user} AND days = ${WINDOW}`);
  await database.db.execute(sql`
    INSERT INTO user_song_windows (user_id, days, uid, plays)
    SELECT ${user}, ${WINDOW}, t.uid, count(*)::int
    FROM plays p JOIN tracks t ON t.id = p.track_id
    WHERE p.user_id = ${user} AND (p.played_at AT TIME ZONE 'UTC')::date > ${floor}
    GROUP BY t.uid`);
  await database.db.execute(sql`
    UPDATE user_song_window_floors SET floor = ${floor}
    WHERE user_id = ${user} AND days = ${WINDOW}`);
}

beforeAll(async () => {
  database = await freshDatabase();
  const now = await database.db.execute<{ today: string }>(
    sql`SELECT ((now() AT TIME ZONE 'UTC')::date)::text AS today`,
  );
  today = new Date(`${now.rows[0]!.today}T00:00:00Z`);
  await storeTracks(database.db, [
    track('windowSong1', 'Tide Pool'),
    track('windowSong2', 'Kelp Forest'),
    track('windowSong3', 'Sand Bar'),
    // The song-move test's own songs.
    track('windowMove1', 'Low Water'),
    track('windowMove2', 'Spring Tide', 'USWIND000001'),
  ]);
});
afterAll(() => database.close());

describe('a rolled song window', () => {
  it('counts at its first read the plays of the days after today less its length', async () => {
    const listener = await newUser('window-first');
    await play(listener, 'windowSong1', 2, 10, 364, WINDOW, 380);
    await play(listener, 'windowSong2', WINDOW);
    const floor = await rollSongWindow(database.db, listener, WINDOW);
    expect(floor).toBe(floorToday());
    const { kept, recounted } = await windowOf(listener, floor);
    expect(kept).toEqual(recounted);
    expect(kept).toEqual([{ uid: 'windowSong1', plays: 3 }]);
  });

  it('counts the plays that come after, in its days only, and only for who reads it', async () => {
    const listener = await newUser('window-later');
    const other = await newUser('window-other');
    await play(listener, 'windowSong1', 5);
    const floor = await rollSongWindow(database.db, listener, WINDOW);
    await play(listener, 'windowSong1', 0, 1);
    // An import of old history: one play in the window, two before it.
    await play(listener, 'windowSong2', 100, WINDOW, 900);
    await play(other, 'windowSong3', 1);
    const { kept, recounted } = await windowOf(listener, floor);
    expect(kept).toEqual(recounted);
    expect(kept).toEqual([
      { uid: 'windowSong1', plays: 3 },
      { uid: 'windowSong2', plays: 1 },
    ]);
    const others = await database.db.execute(
      sql`SELECT 1 FROM user_song_windows WHERE user_id = ${other}`,
    );
    expect(others.rows).toEqual([]);
    // Read again the same day: nothing changes.
    expect(await rollSongWindow(database.db, listener, WINDOW)).toBe(floor);
    expect((await windowOf(listener, floor)).kept).toEqual(kept);
  });

  it('leaves out the days that left it since its last read', async () => {
    const listener = await newUser('window-roll');
    // Plays on days that left the window in the last three days (one song entirely), on its
    // first day now, and lately.
    await play(listener, 'windowSong1', WINDOW + 2, WINDOW, 364, 3);
    await play(listener, 'windowSong2', WINDOW + 1, WINDOW + 2);
    await play(listener, 'windowSong3', 364);
    await rollSongWindow(database.db, listener, WINDOW);
    await lastReadDaysAgo(listener, 3);
    expect((await windowOf(listener, floorToday())).kept).toEqual([
      { uid: 'windowSong1', plays: 4 },
      { uid: 'windowSong2', plays: 2 },
      { uid: 'windowSong3', plays: 1 },
    ]);
    const floor = await rollSongWindow(database.db, listener, WINDOW);
    expect(floor).toBe(floorToday());
    const { kept, recounted } = await windowOf(listener, floor);
    expect(kept).toEqual(recounted);
    expect(kept).toEqual([
      { uid: 'windowSong1', plays: 2 },
      { uid: 'windowSong3', plays: 1 },
    ]);
  });

  it('rolls a window last read 30 days ago and counts again one read longer ago', async () => {
    const listener = await newUser('window-old');
    await play(listener, 'windowSong1', WINDOW + 30, WINDOW + 29, 200);
    await play(listener, 'windowSong2', WINDOW + 31, 7);
    await rollSongWindow(database.db, listener, WINDOW);
    await lastReadDaysAgo(listener, 30);
    let floor = await rollSongWindow(database.db, listener, WINDOW);
    let { kept, recounted } = await windowOf(listener, floor);
    expect(kept).toEqual(recounted);
    // 31 days ago, and a window that lost count: counted again rather than rolled.
    await lastReadDaysAgo(listener, 31);
    await database.db.execute(sql`UPDATE user_song_windows SET plays = 999
      WHERE user_id = ${listener} AND uid = 'windowSong2'`);
    floor = await rollSongWindow(database.db, listener, WINDOW);
    ({ kept, recounted } = await windowOf(listener, floor));
    expect(kept).toEqual(recounted);
    expect(kept).toEqual([
      { uid: 'windowSong1', plays: 1 },
      { uid: 'windowSong2', plays: 1 },
    ]);
  });

  it('is recounted for both songs when a track moves to another song', async () => {
    const listener = await newUser('window-move');
    await play(listener, 'windowMove1', 1, 2, 400);
    await play(listener, 'windowMove2', 3);
    const floor = await rollSongWindow(database.db, listener, WINDOW);
    // Spotify now reports the first song with the other's ISRC: its plays join that song.
    await storeTracks(database.db, [track('windowMove1', 'Low Water', 'USWIND000001')]);
    const { kept, recounted } = await windowOf(listener, floor);
    expect(kept).toEqual(recounted);
    expect(kept).toEqual([{ uid: 'windowMove2', plays: 3 }]);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'counts a play committed while it rolls forward exactly once',
    async () => {
      const listener = await newUser('window-race');
      await play(listener, 'windowSong1', 5);
      await rollSongWindow(database.db, listener, WINDOW);
      await lastReadDaysAgo(listener, 2);
      // A sync inserts a play of a day that is leaving the window, and has not committed yet.
      const writer = await database.pool.connect();
      try {
        await writer.query('BEGIN');
        await writer.query(
          `INSERT INTO plays (user_id, track_id, played_at, source) VALUES ($1, $2, $3, 'api')`,
          [listener, 'windowSong1', daysAgo(WINDOW + 1)],
        );
        const rolled = rollSongWindow(database.db, listener, WINDOW);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await writer.query('COMMIT');
        const floor = await rolled;
        const { kept, recounted } = await windowOf(listener, floor);
        expect(kept).toEqual(recounted);
        expect(kept).toEqual([{ uid: 'windowSong1', plays: 1 }]);
      } finally {
        writer.release();
      }
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'is read without waiting for a sync in progress once rolled today',
    async () => {
      const listener = await newUser('window-nowait');
      await play(listener, 'windowSong1', 5);
      const floor = await rollSongWindow(database.db, listener, WINDOW);
      // A sync of the same user holds its row (KEY SHARE) until it commits.
      const writer = await database.pool.connect();
      try {
        await writer.query('BEGIN');
        await writer.query(
          `INSERT INTO plays (user_id, track_id, played_at, source) VALUES ($1, $2, now(), 'api')`,
          [listener, 'windowSong2'],
        );
        const read = await Promise.race([
          rollSongWindow(database.db, listener, WINDOW),
          new Promise((resolve) => setTimeout(() => resolve('waited'), 1000)),
        ]);
        expect(read).toBe(floor);
      } finally {
        await writer.query('ROLLBACK');
        writer.release();
      }
    },
  );
});
