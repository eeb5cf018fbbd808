import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, type Database } from '../src/db/client';
import { plays } from '../src/db/schema/listening';
import { users } from '../src/db/schema/users';
import { storeTracks } from '../src/services/catalog';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { freshDatabase } from './support/database';

/*
 * Each user's last play of each song (`user_song_stats.last_played_at`, migration
 * `song_last_played`): backfilled by the migration, kept by the plays trigger and recounted when
 * a track moves to another song, always the latest play of any of the song's versions.
 */

let database: Database;
/** The user whose plays were kept before the migration. */
let userId: string;

const harbour = { id: 'artistLast000000000001', name: 'Harbour Lights' };
function track(id: string, name: string, isrc?: string): SpotifyTrack {
  return {
    id,
    name,
    album: { id: `album-${id}`, name: 'Album', artists: [harbour], images: [] },
    artists: [harbour],
    duration_ms: 100_000,
    ...(isrc && { external_ids: { isrc } }),
  };
}

const at = (iso: string) => new Date(iso);
async function play(trackId: string, ...times: Date[]) {
  await playAs(userId, trackId, ...times);
}

async function playAs(user: string, trackId: string, ...times: Date[]) {
  await database.db
    .insert(plays)
    .values(times.map((playedAt) => ({ userId: user, trackId, playedAt, source: 'api' as const })));
}

/** A user of one test's own, whose plays the trigger keeps (the other tests never see them). */
async function newUser(name: string): Promise<string> {
  const [user] = await database.db
    .insert(users)
    .values({ spotifyId: name, username: name, name })
    .returning();
  return user!.id;
}

/** Every song's last play as kept, and as the plays themselves say. */
async function lastPlays(user = userId) {
  const kept = await database.db.execute<{ uid: string; plays: number; last: string }>(sql`
    SELECT uid, plays, last_played_at::text AS last FROM user_song_stats
    WHERE user_id = ${user} ORDER BY uid`);
  const recomputed = await database.db.execute<{ uid: string; plays: number; last: string }>(sql`
    SELECT t.uid, count(*)::int AS plays, max(p.played_at)::text AS last
    FROM plays p JOIN tracks t ON t.id = p.track_id
    WHERE p.user_id = ${user} GROUP BY t.uid ORDER BY t.uid`);
  return { kept: kept.rows, recomputed: recomputed.rows };
}

beforeAll(async () => {
  // As before the migration: plays kept by the earlier trigger, which knew no last play.
  database = await freshDatabase({ through: '0028_search_prefix_statistics' });
  const [user] = await database.db
    .insert(users)
    .values({ spotifyId: 'last-user', username: 'last-user', name: 'Last User' })
    .returning();
  userId = user!.id;
  await storeTracks(database.db, [
    track('lastSong1', 'Tide Tables'),
    track('lastSong2', 'Night Ferry', 'USLAST000001'),
    track('lastSong3', 'Night Ferry (Live)', 'USLAST000001'),
    // The song-move test's own two songs: moving one changes no other test's songs.
    track('moveSong1', 'Low Tide'),
    track('moveSong2', 'Quay Lights', 'USMOVE000001'),
  ]);
  await play('lastSong1', at('2026-03-01T10:00:00Z'), at('2025-01-01T08:00:00Z'));
  // Two versions of one song: the later play is the live one's.
  await play('lastSong2', at('2024-06-01T12:00:00Z'));
  await play('lastSong3', at('2024-07-15T21:30:00Z'));
  await applyMigrations(database);
});
afterAll(() => database.close());

describe("a song's last play", () => {
  it('is backfilled by the migration from the last play of any version', async () => {
    const { kept, recomputed } = await lastPlays();
    expect(kept).toEqual(recomputed);
    expect(kept.map((row) => [row.uid, row.plays])).toEqual([
      ['lastSong1', 2],
      ['lastSong2', 2],
    ]);
  });

  it('keeps the latest when plays arrive out of order', async () => {
    const listener = await newUser('out-of-order');
    await playAs(listener, 'lastSong1', at('2026-04-02T09:00:00Z'));
    // An import of older history after it: the last play stays.
    await playAs(listener, 'lastSong1', at('2019-05-05T05:05:05Z'), at('2026-04-01T23:59:59Z'));
    // Two versions of one song, the later play first.
    await playAs(listener, 'lastSong3', at('2024-07-15T21:30:00Z'));
    await playAs(listener, 'lastSong2', at('2024-07-15T21:00:00Z'));
    const { kept, recomputed } = await lastPlays(listener);
    expect(kept).toEqual(recomputed);
    const byUid = Object.fromEntries(kept.map((row) => [row.uid, row.last]));
    expect(new Date(byUid.lastSong1!).toISOString()).toBe('2026-04-02T09:00:00.000Z');
    expect(new Date(byUid.lastSong2!).toISOString()).toBe('2024-07-15T21:30:00.000Z');
  });

  it('is recounted for both songs when a track moves to another song', async () => {
    const listener = await newUser('song-move');
    await playAs(listener, 'moveSong1', at('2026-03-01T10:00:00Z'), at('2025-01-01T08:00:00Z'));
    await playAs(listener, 'moveSong2', at('2024-06-01T12:00:00Z'));
    // Spotify now reports the first song with the other's ISRC: its plays, and its last play,
    // join that song.
    await storeTracks(database.db, [track('moveSong1', 'Low Tide', 'USMOVE000001')]);
    const { kept, recomputed } = await lastPlays(listener);
    expect(kept).toEqual(recomputed);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ uid: 'moveSong2', plays: 3 });
    expect(new Date(kept[0]!.last).toISOString()).toBe('2026-03-01T10:00:00.000Z');
  });
});
