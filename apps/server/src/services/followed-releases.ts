import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { artistReleaseChecks } from '../db/schema/releases';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { SpotifyError } from '../spotify/errors';
import type { FullAlbum, SimplifiedAlbum, SpotifyTrack } from '../spotify/schemas';
import { storeAlbums, storeTracks } from './catalog';

/** A release this recent is new (docs/product.md, Discover: "New from Followed Artists"). */
export const NEW_RELEASE_DAYS = 180;
/** A followed artist's releases are read again after this long, whoever follows it. */
export const RELEASE_RECHECK_SEC = 24 * 60 * 60;
/** Artists one mirror run reads: two calls each, plus one lookup per 20 new releases. Runs
 * start at most once a minute (`releaseRunDue`): about one call a second at most. */
const ARTISTS_PER_RUN = 25;
/** A mirror run starts only this long after the last artist a run read. */
export const RELEASE_RUN_EVERY_SEC = 60;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A release date as `YYYY-MM-DD` (Spotify gives `YYYY`, `YYYY-MM` or `YYYY-MM-DD`): the first day
 * of its period, as the SQL of `releaseDaySql` reads it too.
 */
export function releaseDay(date: string | null | undefined): string | null {
  if (!date) return null;
  if (/^\d{4}$/.test(date)) return `${date}-01-01`;
  if (/^\d{4}-\d{2}$/.test(date)) return `${date}-01`;
  return date.slice(0, 10);
}

/** The first day a release counts as new, `YYYY-MM-DD`, as of `now`. */
export function newReleaseSince(now: Date): string {
  return new Date(now.getTime() - NEW_RELEASE_DAYS * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Whether a mirror run should start (the dispatcher's test): artists wait to be read, and no run
 * read one in the last minute. Timed from the stored reads rather than the queue's time slots, a
 * run cannot follow another at a slot's edge.
 */
export async function releaseRunDue(db: Db): Promise<boolean> {
  if (!(await releasesAwaitMirroring(db))) return false;
  const result = await db.execute<{ recent: boolean }>(sql`
    SELECT EXISTS (
      SELECT 1 FROM artist_release_checks
      WHERE checked_at > now() - make_interval(secs => ${RELEASE_RUN_EVERY_SEC})
    ) AS recent`);
  return !(result.rows[0]?.recent ?? false);
}

/** Whether followed artists' releases wait to be read. */
export async function releasesAwaitMirroring(db: Db): Promise<boolean> {
  const result = await db.execute<{ waiting: boolean }>(sql`
    SELECT EXISTS (
      SELECT 1 FROM followed_artists f
      LEFT JOIN artist_release_checks c ON c.artist_id = f.artist_id
      WHERE c.checked_at IS NULL
         OR c.checked_at < now() - make_interval(secs => ${RELEASE_RECHECK_SEC})
    ) AS waiting`);
  return result.rows[0]?.waiting ?? false;
}

async function dueArtists(db: Db, limit: number): Promise<string[]> {
  const result = await db.execute<{ artist_id: string }>(sql`
    SELECT f.artist_id FROM followed_artists f
    LEFT JOIN artist_release_checks c ON c.artist_id = f.artist_id
    WHERE c.checked_at IS NULL
       OR c.checked_at < now() - make_interval(secs => ${RELEASE_RECHECK_SEC})
    GROUP BY f.artist_id, c.checked_at
    ORDER BY c.checked_at NULLS FIRST, f.artist_id
    LIMIT ${limit}`);
  return result.rows.map((row) => row.artist_id);
}

/** New releases whose tracks are not all in the catalogue yet. */
async function releasesMissingTracks(db: Db, releases: SimplifiedAlbum[]): Promise<string[]> {
  if (releases.length === 0) return [];
  const ids = releases.map((album) => album.id);
  const result = await db.execute<{ id: string }>(sql`
    SELECT a.id FROM albums a
    WHERE a.id = ANY(${sql.param(ids)}::text[])
      AND (SELECT count(*) FROM tracks t WHERE t.album_id = a.id) < coalesce(a.total_tracks, 1)`);
  return result.rows.map((row) => row.id);
}

/** An artist's newest albums and singles; none if Spotify no longer knows the artist. */
async function newestReleases(spotify: SpotifyClient, auth: TokenSource, artistId: string) {
  try {
    const albums = await spotify.artistReleases(auth, artistId, 'album');
    const singles = await spotify.artistReleases(auth, artistId, 'single');
    return [...albums.items, ...singles.items];
  } catch (error) {
    if (error instanceof SpotifyError && error.status === 404) return [];
    throw error;
  }
}

/** An album's listed tracks as full track objects (the album is theirs). */
function tracksOf(album: FullAlbum): SpotifyTrack[] {
  const { tracks, ...simplified } = album;
  return (tracks?.items ?? []).map((item) => ({ ...item, album: simplified }));
}

export interface ReleaseMirrorResult {
  artists: number;
  newReleases: number;
  tracks: number;
}

/**
 * Mirrors the releases of followed artists: for up to 25 artists due (never read, or read over a
 * day ago), their newest albums and singles, and the tracks of those released in the last 180
 * days, which "New from Followed Artists" suggests. Each artist is marked read once its releases
 * are stored; a rate limit Spotify asks to wait out longer than the process holds stops the run
 * (the error propagates) and the artists not reached stay due.
 */
export async function mirrorFollowedReleases(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  /** Spotify's "now", which dates the new releases. */
  now = new Date(),
): Promise<ReleaseMirrorResult> {
  const since = newReleaseSince(now);
  const result: ReleaseMirrorResult = { artists: 0, newReleases: 0, tracks: 0 };
  for (const artistId of await dueArtists(db, ARTISTS_PER_RUN)) {
    const releases = await newestReleases(spotify, auth, artistId);
    await storeAlbums(db, releases);
    const fresh = releases.filter((album) => (releaseDay(album.release_date) ?? '') >= since);
    const missing = await releasesMissingTracks(db, fresh);
    if (missing.length > 0) {
      const full = await spotify.albums(auth, missing);
      result.tracks += (await storeTracks(db, full.flatMap(tracksOf))).length;
    }
    await db
      .insert(artistReleaseChecks)
      .values({ artistId, checkedAt: sql`now()` })
      .onConflictDoUpdate({ target: artistReleaseChecks.artistId, set: { checkedAt: sql`now()` } });
    result.artists += 1;
    result.newReleases += fresh.length;
  }
  return result;
}
