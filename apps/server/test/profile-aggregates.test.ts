import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { plays } from '../src/db/schema/listening';
import { users } from '../src/db/schema/users';
import { storeTracks } from '../src/services/catalog';
import { PlayColumns, storeImportedPlays } from '../src/services/import/store';
import { profileStats } from '../src/services/stats';
import type { SpotifyTrack } from '../src/spotify/schemas';
import { freshDatabase } from './support/database';

let database: Database;
let userId: string;
let importerId: string;
beforeAll(async () => {
  database = await freshDatabase();
  const [user] = await database.db
    .insert(users)
    .values({ spotifyId: 'agg-user', username: 'agg-user', name: 'Agg User' })
    .returning();
  userId = user!.id;
  // The import test has its own user: each test's figures are its own, in any order.
  const [importer] = await database.db
    .insert(users)
    .values({ spotifyId: 'agg-importer', username: 'agg-importer', name: 'Agg Importer' })
    .returning();
  importerId = importer!.id;
});
afterAll(() => database.close());

const lanterns = { id: 'artistAgg00000000000001', name: 'The Lanterns' };
const guest = { id: 'artistAgg00000000000002', name: 'Guest Star' };
function track(id: string, name: string, isrc?: string, featuring = false): SpotifyTrack {
  return {
    id,
    name,
    album: {
      id: `album-${id}`,
      name: 'Album',
      artists: [lanterns],
      images: [],
      release_date: '1999-01-01',
    },
    artists: featuring ? [lanterns, guest] : [lanterns],
    duration_ms: 100_000,
    ...(isrc && { external_ids: { isrc } }),
  };
}

const day = 86_400_000;
async function play(trackId: string, daysAgo: number, count: number) {
  await database.db.insert(plays).values(
    Array.from({ length: count }, (_, n) => ({
      userId,
      trackId,
      playedAt: new Date(Date.now() - daysAgo * day - n * 60_000),
      source: 'api' as const,
    })),
  );
}

/** The coarse aggregates, recomputed from the plays themselves. */
async function recomputed() {
  const rows = await database.db.execute<{ kind: string; key: string; plays: number }>(sql`
    SELECT 'song' AS kind, t.uid AS key, count(*)::int AS plays
    FROM plays p JOIN tracks t ON t.id = p.track_id WHERE p.user_id = ${userId} GROUP BY 2
    UNION ALL
    SELECT 'artist', ta.artist_id, count(*)::int
    FROM plays p JOIN track_artists ta ON ta.track_id = p.track_id WHERE p.user_id = ${userId} GROUP BY 2
    UNION ALL
    SELECT 'day', (p.played_at AT TIME ZONE 'UTC')::date::text, count(*)::int
    FROM plays p WHERE p.user_id = ${userId} GROUP BY 2
    UNION ALL
    SELECT 'track', p.track_id, count(*)::int FROM plays p WHERE p.user_id = ${userId} GROUP BY 2
    UNION ALL
    SELECT 'album', t.album_id, count(*)::int
    FROM plays p JOIN tracks t ON t.id = p.track_id WHERE p.user_id = ${userId} GROUP BY 2
    UNION ALL
    -- Per track and day: only the days profiles read.
    SELECT 'track-day', (p.played_at AT TIME ZONE 'UTC')::date::text || ' ' || p.track_id,
           count(*)::int
    FROM plays p
    WHERE p.user_id = ${userId} AND p.played_at > now() - interval '399 days'
    GROUP BY 2
    ORDER BY 1, 2`);
  return rows.rows;
}

async function kept() {
  const rows = await database.db.execute<{ kind: string; key: string; plays: number }>(sql`
    SELECT 'song' AS kind, uid AS key, plays FROM user_song_stats WHERE user_id = ${userId}
    UNION ALL
    SELECT 'artist', artist_id, plays FROM user_artist_stats WHERE user_id = ${userId}
    UNION ALL
    SELECT 'day', day::text, plays FROM user_days WHERE user_id = ${userId}
    UNION ALL
    SELECT 'track', track_id, plays FROM user_track_stats WHERE user_id = ${userId}
    UNION ALL
    SELECT 'album', album_id, plays FROM user_album_stats WHERE user_id = ${userId}
    UNION ALL
    SELECT 'track-day', day::text || ' ' || track_id, plays FROM user_track_days
    WHERE user_id = ${userId}
    ORDER BY 1, 2`);
  return rows.rows;
}

describe('profile aggregates', () => {
  it('follow the plays, per song, artist and day, and move when two songs merge', async () => {
    await storeTracks(database.db, [
      track('aggSong1', 'Paper Boats'),
      track('aggSong2', 'Harbour Song', 'USAGG0000001', true),
    ]);
    await play('aggSong1', 1, 3);
    await play('aggSong2', 2, 2);
    await play('aggSong2', 40, 1);
    // Older than the per-track days kept: counted everywhere else.
    await play('aggSong1', 500, 2);
    expect(await kept()).toEqual(await recomputed());

    // Spotify now reports aggSong1 with the other song's ISRC: one song, five plays in all.
    await storeTracks(database.db, [track('aggSong1', 'Paper Boats', 'USAGG0000001')]);
    expect(await kept()).toEqual(await recomputed());
    const stats = await profileStats(database.db, userId, true);
    expect(stats.top_songs_all_time?.map((s) => s.play_count)).toEqual([8]);
    expect(stats.total_plays).toBe(8);
  });
});

describe('aggregates when enrichment completes an imported track', () => {
  it('move the plays from the name-only artist to the real ones, and count the album', async () => {
    const real = { id: 'artistAgg00000000000009', name: 'Real Band' };
    const importedId = 'importedTrack000000001';
    await database.db.transaction((tx) =>
      storeImportedPlays(
        tx,
        importerId,
        'extended_history',
        PlayColumns.of([
          {
            playedAt: new Date('2020-02-02T10:00:00Z'),
            msPlayed: 120_000,
            trackId: importedId,
            trackName: 'Late Enrichment',
            artistName: 'Real Band (as exported)',
            albumName: 'Old Record',
          },
        ]),
      ),
    );
    const artistsBefore = await database.db.execute<{ artist_id: string; plays: number }>(
      sql`SELECT artist_id, plays FROM user_artist_stats WHERE user_id = ${importerId}
          AND artist_id LIKE 'n:%'`,
    );
    expect(artistsBefore.rows).toHaveLength(1);

    await storeTracks(database.db, [
      {
        id: importedId,
        name: 'Late Enrichment',
        album: {
          id: 'album-late',
          name: 'Old Record',
          artists: [real],
          images: [],
          release_date: '1985-05-05',
        },
        artists: [real],
        duration_ms: 200_000,
      },
    ]);
    const artistsAfter = await database.db.execute<{ artist_id: string; plays: number }>(
      sql`SELECT artist_id, plays FROM user_artist_stats WHERE user_id = ${importerId}
          AND (artist_id LIKE 'n:%' OR artist_id = ${real.id})`,
    );
    expect(artistsAfter.rows).toEqual([{ artist_id: real.id, plays: 1 }]);
    const albums = await database.db.execute<{ album_id: string; plays: number }>(
      sql`SELECT album_id, plays FROM user_album_stats WHERE user_id = ${importerId}
          AND album_id = 'album-late'`,
    );
    expect(albums.rows).toEqual([{ album_id: 'album-late', plays: 1 }]);
  });
});
