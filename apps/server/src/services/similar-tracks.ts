import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client';

/** Similar tracks a track page shows. */
const SIMILAR_TRACKS_SHOWN = 10;
/** Neighbours kept per song: enough to show ten after a viewer's ignores. */
const NEIGHBOURS_KEPT = 40;
/** Plays of a song whose neighbours make its similar tracks: the most recent ones. */
const SEED_PLAYS = 200;
/** Songs whose neighbours one process keeps (~4 KB each). */
const SONGS_KEPT = 10_000;
/** Listening moves slowly: a song's neighbours are read again after this long. */
const KEPT_FOR_MS = 10 * 60 * 1000;

interface IdRow extends Record<string, unknown> {
  id: string;
}

/**
 * Songs the people who play this one play around the same time (an hour either side), by how
 * many of them do, one version each: Earshot's own listening data, since Spotify closed its
 * related-tracks and recommendation endpoints.
 */
async function songNeighbours(
  db: Db,
  uid: string,
  versionIds: readonly string[],
): Promise<string[]> {
  // Each step is materialised and the tracks are looked up by key for the few hundred
  // neighbours alone: inlined, the planner misjudged the neighbours by a hundredfold and scanned
  // the whole catalogue (bench/catalogue's plans).
  const result = await db.execute<IdRow>(sql`
    WITH seeds AS MATERIALIZED (
      SELECT p.user_id, p.played_at FROM plays p
      WHERE p.track_id = ANY(${sql.param([...versionIds])}::text[])
      ORDER BY p.played_at DESC LIMIT ${SEED_PLAYS}
    ), near AS MATERIALIZED (
      SELECT p.user_id, p.track_id, count(*) AS plays FROM seeds s
      JOIN plays p ON p.user_id = s.user_id
       AND p.played_at BETWEEN s.played_at - interval '1 hour' AND s.played_at + interval '1 hour'
      GROUP BY p.user_id, p.track_id
    ), candidates AS MATERIALIZED (
      SELECT t.id, t.uid FROM tracks t
      WHERE t.id = ANY(ARRAY(SELECT DISTINCT track_id FROM near)) AND t.uid <> ${uid}
    )
    SELECT min(t.id) AS id
    FROM near n JOIN candidates t ON t.id = n.track_id
    GROUP BY t.uid
    ORDER BY count(DISTINCT n.user_id) DESC, sum(n.plays) DESC, t.uid
    LIMIT ${NEIGHBOURS_KEPT}`);
  return result.rows.map((row) => row.id);
}

/**
 * A track page's similar tracks. Reading a popular song's neighbours costs milliseconds of
 * database work (hundreds of plays around hundreds of plays), so each song's are kept for ten
 * minutes in this process; ignores change at once, so they are applied on every request.
 */
export class SimilarTracks {
  readonly #neighbours: LRUCache<string, string[]>;

  constructor(keptForMs = KEPT_FOR_MS) {
    this.#neighbours = new LRUCache({ max: SONGS_KEPT, ttl: keptForMs });
  }

  /**
   * The song's similar tracks for `userId` (null: a visitor), without the viewer's and the
   * global ignores, the most shared first.
   */
  async of(
    db: Db,
    userId: string | null,
    uid: string,
    versionIds: readonly string[],
  ): Promise<string[]> {
    let neighbours = this.#neighbours.get(uid);
    if (!neighbours) {
      neighbours = await songNeighbours(db, uid, versionIds);
      this.#neighbours.set(uid, neighbours);
    }
    if (neighbours.length === 0) return [];
    const result = await db.execute<IdRow>(sql`
      SELECT t.id FROM tracks t
      WHERE t.id = ANY(${sql.param(neighbours)}::text[])
        AND NOT EXISTS (SELECT 1 FROM global_ignored_tracks g WHERE g.uid = t.uid)
        AND NOT EXISTS (SELECT 1 FROM ignored_tracks i
                        WHERE i.user_id = ${userId}::uuid AND i.uid = t.uid)
        AND NOT EXISTS (SELECT 1 FROM track_artists ta JOIN global_ignored_artists g
                          ON g.artist_id = ta.artist_id WHERE ta.track_id = t.id)
        AND NOT EXISTS (SELECT 1 FROM track_artists ta JOIN ignored_artists i
                          ON i.artist_id = ta.artist_id AND i.user_id = ${userId}::uuid
                        WHERE ta.track_id = t.id)`);
    const kept = new Set(result.rows.map((row) => row.id));
    return neighbours.filter((id) => kept.has(id)).slice(0, SIMILAR_TRACKS_SHOWN);
  }
}
