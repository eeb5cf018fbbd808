import type { CatalogueTrack, FriendListener, ViewerListening } from '@earshot/contract/catalogue';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { UserRow } from '../db/schema/users';
import type { TokenSource } from '../spotify/client';
import { SpotifyError } from '../spotify/errors';
import { SpotifyDisconnectedError } from './spotify-tokens';
import { trackSummaries } from './tracks';
import { friendIdsQuery } from './social';

/**
 * Who opens a catalogue page: a logged-in user whose Spotify connection fills in what Earshot has
 * not stored yet, or a visitor (no user) with Earshot's own token within its budget, or with no
 * Spotify at all when the app has no secret.
 */
export interface PageViewer {
  user: UserRow | null;
  spotify: TokenSource | null;
}

/** Whether a failure is Spotify's (or the viewer's connection's), which a page can live with. */
export function isUpstreamFailure(error: unknown): error is Error {
  return error instanceof SpotifyError || error instanceof SpotifyDisconnectedError;
}

/** The page's notice when Spotify could not fill it in: it shows what Earshot has stored. */
export function upstreamNotice(error: Error): string {
  const why =
    error instanceof SpotifyDisconnectedError
      ? 'your Spotify connection has expired'
      : `Spotify could not answer (${error.message})`;
  return `Showing what Earshot has stored: ${why}.`;
}

/**
 * Runs a fill from Spotify. Answers null when it worked or there was no one to ask with, else
 * the notice to show; anything other than an upstream failure is thrown.
 */
export async function tryFill(
  viewer: PageViewer,
  fill: (spotify: TokenSource) => Promise<void>,
): Promise<string | null> {
  if (!viewer.spotify) return null;
  try {
    await fill(viewer.spotify);
    return null;
  } catch (error) {
    if (isUpstreamFailure(error)) return upstreamNotice(error);
    throw error;
  }
}

export function isStale(at: Date | null, maxAgeMs: number): boolean {
  return at === null || Date.now() - at.getTime() > maxAgeMs;
}

const viewerId = (viewer: PageViewer) => viewer.user?.id ?? null;

interface ListeningRow extends Record<string, unknown> {
  id: string;
  username: string;
  name: string;
  picture: string | null;
  plays: number;
}

/** How many friends a page lists: the most plays first. */
const FRIEND_LISTENERS_SHOWN = 12;

/**
 * The viewer's plays and their friends' of what `stats` selects (a `user_*_stats` table filtered
 * to the item, with `user_id` and `plays`); null for visitors.
 */
export async function viewerListening(
  db: Db,
  viewer: PageViewer,
  stats: SQL,
): Promise<ViewerListening | null> {
  const id = viewerId(viewer);
  if (id === null) return null;
  const result = await db.transaction(async (tx) => {
    // A popular track's ~150 friend probes are planned as a parallel query at a million tracks:
    // starting the workers took 20-60 ms of a 1-ms statement on a busy machine
    // (bench/results/catalogue-postgres-x1-plans.txt).
    await tx.execute(sql`SET LOCAL max_parallel_workers_per_gather = 0`);
    return tx.execute<ListeningRow>(sql`
      WITH people AS (
        SELECT ${id}::uuid AS user_id
        UNION ALL ${friendIdsQuery(id)}
      ), counted AS (
        SELECT s.user_id, sum(s.plays)::int AS plays
        FROM (${stats}) s JOIN people p ON p.user_id = s.user_id
        GROUP BY s.user_id
      )
      SELECT u.id, u.username, u.name, u.picture, c.plays
      FROM counted c JOIN users u ON u.id = c.user_id
      WHERE c.plays > 0
      ORDER BY c.plays DESC, u.username`);
  });
  const own = result.rows.find((row) => row.id === id);
  const friends: FriendListener[] = result.rows
    .filter((row) => row.id !== id)
    .slice(0, FRIEND_LISTENERS_SHOWN)
    .map((row) => ({
      id: row.id,
      username: row.username,
      name: row.name,
      picture: row.picture,
      play_count: row.plays,
    }));
  return { play_count: own?.plays ?? 0, friends };
}

interface TrackViewRow extends Record<string, unknown> {
  id: string;
  liked: boolean;
  plays: number;
}

/** Tracks by id in the given order, each with the viewer's like (of the song) and plays. */
export async function catalogueTracks(
  db: Db,
  viewer: PageViewer,
  ids: readonly string[],
): Promise<CatalogueTrack[]> {
  const summaries = await trackSummaries(db, ids);
  const id = viewerId(viewer);
  const personal = new Map<string, TrackViewRow>();
  if (id !== null && ids.length > 0) {
    const result = await db.execute<TrackViewRow>(sql`
      SELECT t.id,
             EXISTS (SELECT 1 FROM tracks v JOIN saved_tracks st ON st.track_id = v.id
                     WHERE v.uid = t.uid AND st.user_id = ${id}::uuid) AS liked,
             coalesce((SELECT sum(s.plays) FROM user_track_stats s
                       WHERE s.user_id = ${id}::uuid AND s.track_id = t.id), 0)::int AS plays
      FROM tracks t WHERE t.id = ANY(${sql.param([...ids])}::text[])`);
    for (const row of result.rows) personal.set(row.id, row);
  }
  return ids.flatMap((trackId) => {
    const track = summaries.get(trackId);
    if (!track) return [];
    const own = personal.get(trackId);
    return [
      {
        track,
        liked: id === null ? null : (own?.liked ?? false),
        play_count: id === null ? null : (own?.plays ?? 0),
      },
    ];
  });
}
