import type {
  AlbumDetail,
  AlbumSummary,
  ArtistAlbums,
  ArtistCredit,
  ArtistDetail,
  ArtistTracks,
  TrackDetail,
} from '@earshot/contract/catalogue';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { albums, artists, tracks } from '../db/schema/catalog';
import { followedArtists } from '../db/schema/library';
import { spotifyAccounts } from '../db/schema/spotify-accounts';
import { HttpError } from '../errors';
import type { SpotifyClient } from '../spotify/client';
import type { SimplifiedAlbum, SpotifyTrack } from '../spotify/schemas';
import { storeAlbums, storeArtists, storeTracks } from './catalog';
import {
  catalogueTracks,
  isStale,
  isUpstreamFailure,
  tryFill,
  upstreamNotice,
  viewerListening,
  type PageViewer,
} from './catalogue-viewer';
import { trackSummaries } from './tracks';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Artists change (pictures, genres, followers): re-read from Spotify after a week. */
const ARTIST_STALE_MS = 7 * DAY_MS;
/** New releases appear: an artist's discography is re-read after a day. */
const DISCOGRAPHY_STALE_MS = DAY_MS;
/** A release's track list almost never changes. */
const ALBUM_TRACKS_STALE_MS = 30 * DAY_MS;
/** Pages of an artist's releases read at most (10 a page in Development Mode). */
const MAX_DISCOGRAPHY_PAGES = 20;
/** Tracks an artist's Tracks tab lists, the most played first (plus every one the viewer likes). */
const ARTIST_TRACKS_SHOWN = 100;
const SIMILAR_TRACKS_SHOWN = 10;
/** Plays of a song whose neighbours make its similar tracks: the most recent ones. */
const SIMILAR_SEED_PLAYS = 200;

async function artistRow(db: Db, id: string) {
  const [row] = await db.select().from(artists).where(eq(artists.id, id));
  return row;
}

/**
 * The artist as stored, read from Spotify first when Earshot has never seen it whole or not for a
 * while. Answers 404 when neither knows it; a Spotify failure serves what is stored.
 */
async function knownArtist(db: Db, spotify: SpotifyClient, viewer: PageViewer, id: string) {
  const stored = await artistRow(db, id);
  if (stored && !isStale(stored.enrichedAt, ARTIST_STALE_MS)) return stored;
  if (viewer.spotify) {
    try {
      await storeArtists(db, await spotify.artists(viewer.spotify, [id]));
    } catch (error) {
      if (!isUpstreamFailure(error) || !stored) throw error;
    }
  }
  const found = await artistRow(db, id);
  if (!found) throw new HttpError(404, 'Artist not found');
  return found;
}

/** Reads the artist's releases from Spotify when never read or stale; answers the notice. */
async function fillDiscography(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer,
  artist: { id: string; albumsFetchedAt: Date | null },
): Promise<string | null> {
  if (!isStale(artist.albumsFetchedAt, DISCOGRAPHY_STALE_MS)) return null;
  return tryFill(viewer, async (auth) => {
    const releases: SimplifiedAlbum[] = [];
    let next: string | undefined;
    let pages = 0;
    do {
      const page = await spotify.artistAlbums(auth, artist.id, next);
      releases.push(...page.items);
      next = page.next ?? undefined;
    } while (next && ++pages < MAX_DISCOGRAPHY_PAGES);
    await storeAlbums(db, releases);
    await db.update(artists).set({ albumsFetchedAt: new Date() }).where(eq(artists.id, artist.id));
  });
}

/**
 * Whether the viewer follows the artist: from their mirrored library once it was synced, else
 * asked of Spotify; null when no one can say.
 */
async function followState(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer,
  artistId: string,
): Promise<boolean | null> {
  if (!viewer.user) return null;
  const [account] = await db
    .select({ status: spotifyAccounts.status, librarySyncedAt: spotifyAccounts.librarySyncedAt })
    .from(spotifyAccounts)
    .where(eq(spotifyAccounts.userId, viewer.user.id));
  if (account?.librarySyncedAt) {
    const [row] = await db
      .select({ artistId: followedArtists.artistId })
      .from(followedArtists)
      .where(
        sql`${followedArtists.userId} = ${viewer.user.id} AND ${followedArtists.artistId} = ${artistId}`,
      );
    return row !== undefined;
  }
  if (!viewer.spotify || account?.status !== 'active') return null;
  try {
    return await spotify.artistFollowed(viewer.spotify, artistId);
  } catch (error) {
    if (isUpstreamFailure(error)) return null;
    throw error;
  }
}

interface ArtistCountsRow extends Record<string, unknown> {
  track_count: number;
  album_count: number;
  liked: number;
}

/** `GET /api/artist/{id}`. */
export async function artistDetail(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer,
  id: string,
): Promise<ArtistDetail> {
  const artist = await knownArtist(db, spotify, viewer, id);
  // The Albums tab's count is shown at once: its releases are read now if they never were.
  await fillDiscography(db, spotify, viewer, artist);
  const userId = viewer.user?.id ?? null;
  const counts = await db.execute<ArtistCountsRow>(sql`
    SELECT
      (SELECT count(DISTINCT t.uid) FROM track_artists ta JOIN tracks t ON t.id = ta.track_id
       WHERE ta.artist_id = ${id})::int AS track_count,
      (SELECT count(DISTINCT aa.album_id) FROM album_artists aa WHERE aa.artist_id = ${id})::int
        AS album_count,
      (SELECT count(DISTINCT t.uid) FROM saved_tracks st
         JOIN track_artists ta ON ta.track_id = st.track_id AND ta.artist_id = ${id}
         JOIN tracks t ON t.id = st.track_id
       WHERE st.user_id = ${userId}::uuid)::int AS liked`);
  const row = counts.rows[0]!;
  return {
    id: artist.id,
    name: artist.name,
    picture: artist.picture,
    genres: artist.genres ?? [],
    followers: artist.followers,
    popularity: artist.popularity,
    is_followed: await followState(db, spotify, viewer, id),
    user_liked_tracks: userId === null ? null : row.liked,
    track_count: row.track_count,
    album_count: row.album_count,
    listening: await viewerListening(
      db,
      viewer,
      sql`SELECT user_id, plays FROM user_artist_stats WHERE artist_id = ${id}`,
    ),
  };
}

/** 404 unless Earshot knows the artist (the artist page was opened first). */
async function requireArtist(db: Db, id: string) {
  const artist = await artistRow(db, id);
  if (!artist) throw new HttpError(404, 'Artist not found');
  return artist;
}

interface ArtistSongRow extends Record<string, unknown> {
  id: string;
}

/**
 * `GET /api/artist/{id}/tracks`: one version per song, the most played in Earshot first, then
 * Spotify's popularity; every song the viewer likes is included (the Likes tab).
 */
export async function artistTracks(db: Db, viewer: PageViewer, id: string): Promise<ArtistTracks> {
  await requireArtist(db, id);
  const userId = viewer.user?.id ?? null;
  const result = await db.execute<ArtistSongRow>(sql`
    WITH credited AS (
      SELECT t.id, t.uid, t.popularity,
             coalesce((SELECT sum(s.plays) FROM user_track_stats s WHERE s.track_id = t.id), 0)
               AS plays
      FROM track_artists ta JOIN tracks t ON t.id = ta.track_id
      WHERE ta.artist_id = ${id}
    ), songs AS (
      SELECT DISTINCT ON (uid) id, uid, popularity,
             sum(plays) OVER (PARTITION BY uid) AS song_plays
      FROM credited
      ORDER BY uid, plays DESC, popularity DESC NULLS LAST, id
    ), ranked AS (
      SELECT id, uid, row_number() OVER (ORDER BY song_plays DESC, popularity DESC NULLS LAST, id)
               AS rank
      FROM songs
    )
    SELECT r.id FROM ranked r
    WHERE r.rank <= ${ARTIST_TRACKS_SHOWN}
       OR EXISTS (SELECT 1 FROM tracks v JOIN saved_tracks st ON st.track_id = v.id
                  WHERE v.uid = r.uid AND st.user_id = ${userId}::uuid)
    ORDER BY r.rank`);
  return {
    items: await catalogueTracks(
      db,
      viewer,
      result.rows.map((row) => row.id),
    ),
  };
}

interface AlbumSummaryRow extends Record<string, unknown> {
  id: string;
  name: string;
  picture: string | null;
  release_date: string | null;
  album_type: string | null;
  track_count: number | null;
}

/** `GET /api/artist/{id}/albums`: the releases the artist is credited on, newest first. */
export async function artistAlbums(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer,
  id: string,
): Promise<ArtistAlbums> {
  const artist = await requireArtist(db, id);
  const notice = await fillDiscography(db, spotify, viewer, artist);
  const result = await db.execute<AlbumSummaryRow>(sql`
    SELECT al.id, al.name, al.picture, al.release_date, al.album_type,
           al.total_tracks AS track_count
    FROM albums al
    WHERE al.id IN (SELECT aa.album_id FROM album_artists aa WHERE aa.artist_id = ${id})
    ORDER BY al.release_date DESC NULLS LAST, al.name, al.id`);
  const items: AlbumSummary[] = result.rows.map((row) => ({ ...row }));
  return { items, notice };
}

async function albumRow(db: Db, id: string) {
  const [row] = await db.select().from(albums).where(eq(albums.id, id));
  return row;
}

/** Reads the album and all its tracks from Spotify; false when Spotify does not know it. */
async function fetchAlbum(
  db: Db,
  spotify: SpotifyClient,
  auth: NonNullable<PageViewer['spotify']>,
  id: string,
): Promise<boolean> {
  const [album] = await spotify.albums(auth, [id]);
  if (!album) return false;
  const listed = [...(album.tracks?.items ?? [])];
  let next = album.tracks?.next ?? undefined;
  while (next) {
    const page = await spotify.albumTracks(auth, next);
    listed.push(...page.items);
    next = page.next ?? undefined;
  }
  const { tracks: _tracks, ...simplifiedAlbum } = album;
  const full: SpotifyTrack[] = listed.map((track) => ({ ...track, album: simplifiedAlbum }));
  await storeAlbums(db, [simplifiedAlbum]);
  await storeTracks(db, full);
  await db.update(albums).set({ tracksFetchedAt: new Date() }).where(eq(albums.id, id));
  return true;
}

interface CreditRow extends Record<string, unknown> {
  id: string;
  name: string;
  picture: string | null;
}

async function albumArtistCredits(db: Db, albumId: string | null): Promise<ArtistCredit[]> {
  if (albumId === null) return [];
  const result = await db.execute<CreditRow>(sql`
    SELECT a.id, a.name, a.picture FROM album_artists aa JOIN artists a ON a.id = aa.artist_id
    WHERE aa.album_id = ${albumId} ORDER BY aa.position`);
  return result.rows.map((row) => ({ ...row }));
}

/** `GET /api/album/{id}`: the album with its tracks in disc and track order. */
export async function albumDetail(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer,
  id: string,
): Promise<AlbumDetail> {
  const stored = await albumRow(db, id);
  let notice: string | null = null;
  if (!stored || isStale(stored.tracksFetchedAt, ALBUM_TRACKS_STALE_MS)) {
    if (viewer.spotify) {
      try {
        await fetchAlbum(db, spotify, viewer.spotify, id);
      } catch (error) {
        if (!isUpstreamFailure(error) || !stored) throw error;
        notice = upstreamNotice(error);
      }
    }
  }
  const album = await albumRow(db, id);
  if (!album) throw new HttpError(404, 'Album not found');
  const trackRows = await db
    .select({ id: tracks.id })
    .from(tracks)
    .where(eq(tracks.albumId, id))
    .orderBy(tracks.discNumber, tracks.trackNumber, tracks.name, tracks.id);
  return {
    id: album.id,
    name: album.name,
    picture: album.picture,
    release_date: album.releaseDate,
    album_type: album.albumType,
    track_count: album.totalTracks,
    album_artists: await albumArtistCredits(db, id),
    tracks: await catalogueTracks(
      db,
      viewer,
      trackRows.map((row) => row.id),
    ),
    listening: await viewerListening(
      db,
      viewer,
      sql`SELECT user_id, plays FROM user_album_stats WHERE album_id = ${id}`,
    ),
    notice,
  };
}

interface IdRow extends Record<string, unknown> {
  id: string;
}

/**
 * Songs the people who play this one play around the same time (an hour either side), by how
 * many of them do: Earshot's own listening data, since Spotify closed its related-tracks and
 * recommendation endpoints. The viewer's and global ignores are left out.
 */
async function similarTrackIds(
  db: Db,
  viewer: PageViewer,
  uid: string,
  versionIds: readonly string[],
): Promise<string[]> {
  const userId = viewer.user?.id ?? null;
  // Each step is materialised and the tracks are looked up by key for the few hundred
  // neighbours alone: inlined, the planner misjudged the neighbours by a hundredfold and scanned
  // the whole catalogue (bench/catalogue's plans).
  const result = await db.execute<IdRow>(sql`
    WITH seeds AS MATERIALIZED (
      SELECT p.user_id, p.played_at FROM plays p
      WHERE p.track_id = ANY(${sql.param([...versionIds])}::text[])
      ORDER BY p.played_at DESC LIMIT ${SIMILAR_SEED_PLAYS}
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
    WHERE NOT EXISTS (SELECT 1 FROM global_ignored_tracks g WHERE g.uid = t.uid)
      AND NOT EXISTS (SELECT 1 FROM ignored_tracks i
                      WHERE i.user_id = ${userId}::uuid AND i.uid = t.uid)
      AND NOT EXISTS (SELECT 1 FROM track_artists ta JOIN global_ignored_artists g
                        ON g.artist_id = ta.artist_id WHERE ta.track_id = t.id)
      AND NOT EXISTS (SELECT 1 FROM track_artists ta JOIN ignored_artists i
                        ON i.artist_id = ta.artist_id AND i.user_id = ${userId}::uuid
                      WHERE ta.track_id = t.id)
    GROUP BY t.uid
    ORDER BY count(DISTINCT n.user_id) DESC, sum(n.plays) DESC, t.uid
    LIMIT ${SIMILAR_TRACKS_SHOWN}`);
  return result.rows.map((row) => row.id);
}

interface TrackFactsRow extends Record<string, unknown> {
  total_likes: number;
  liked: boolean;
}

/** `GET /api/track/{id}`. */
export async function trackDetail(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer,
  id: string,
): Promise<TrackDetail> {
  const [stored] = await db
    .select({ id: tracks.id, enrichedAt: tracks.enrichedAt })
    .from(tracks)
    .where(eq(tracks.id, id));
  if (!stored?.enrichedAt && viewer.spotify) {
    try {
      await storeTracks(db, await spotify.tracks(viewer.spotify, [id]));
    } catch (error) {
      if (!isUpstreamFailure(error) || !stored) throw error;
    }
  }
  const track = (await trackSummaries(db, [id])).get(id);
  if (!track) throw new HttpError(404, 'Track not found');
  const versions = await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.uid, track.uid));
  const versionIds = versions.map((version) => version.id);
  const userId = viewer.user?.id ?? null;
  const facts = await db.execute<TrackFactsRow>(sql`
    SELECT
      (SELECT count(DISTINCT st.user_id) FROM saved_tracks st
       WHERE st.track_id = ANY(${sql.param(versionIds)}::text[]))::int AS total_likes,
      EXISTS (SELECT 1 FROM saved_tracks st
              WHERE st.user_id = ${userId}::uuid
                AND st.track_id = ANY(${sql.param(versionIds)}::text[])) AS liked`);
  const { total_likes: totalLikes, liked } = facts.rows[0]!;
  const others = versionIds.filter((versionId) => versionId !== id).sort();
  const similar = await similarTrackIds(db, viewer, track.uid, versionIds);
  const summaries = await trackSummaries(db, [...others, ...similar]);
  const pick = (ids: readonly string[]) =>
    ids.flatMap((trackId) => {
      const summary = summaries.get(trackId);
      return summary ? [summary] : [];
    });
  return {
    track,
    total_likes: totalLikes,
    album_artists: await albumArtistCredits(db, track.album?.id ?? null),
    similar_tracks: pick(similar),
    other_versions: pick(others),
    liked: userId === null ? null : liked,
    listening: await viewerListening(
      db,
      viewer,
      sql`SELECT user_id, plays FROM user_track_stats
          WHERE track_id = ANY(${sql.param(versionIds)}::text[])`,
    ),
  };
}
