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
import { spotifyAccount } from './spotify-accounts';
import { albums, artists, tracks } from '../db/schema/catalog';
import { followedArtists } from '../db/schema/library';
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
import type { SimilarTracks } from './similar-tracks';
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

/** What the artist page's head shows (the server's page metadata): 404 when no one knows it. */
export async function artistHead(db: Db, spotify: SpotifyClient, viewer: PageViewer, id: string) {
  const artist = await knownArtist(db, spotify, viewer, id);
  return { id: artist.id, name: artist.name, picture: artist.picture, genres: artist.genres ?? [] };
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
  const account = await spotifyAccount(db, viewer.user.id);
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

/**
 * The album as stored, with all its tracks read from Spotify first when never read or stale.
 * Answers 404 when neither knows it; a Spotify failure serves what is stored, with its notice.
 */
async function knownAlbum(db: Db, spotify: SpotifyClient, viewer: PageViewer, id: string) {
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
  return { album, notice };
}

function albumTrackIds(db: Db, id: string) {
  return db
    .select({ id: tracks.id })
    .from(tracks)
    .where(eq(tracks.albumId, id))
    .orderBy(tracks.discNumber, tracks.trackNumber, tracks.name, tracks.id);
}

/** What the album page's head shows (the server's page metadata). */
export async function albumHead(db: Db, spotify: SpotifyClient, viewer: PageViewer, id: string) {
  const { album } = await knownAlbum(db, spotify, viewer, id);
  return {
    id: album.id,
    name: album.name,
    picture: album.picture,
    release_date: album.releaseDate,
    album_artists: await albumArtistCredits(db, id),
    trackCount: (await albumTrackIds(db, id)).length,
  };
}

/** `GET /api/album/{id}`: the album with its tracks in disc and track order. */
export async function albumDetail(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer,
  id: string,
): Promise<AlbumDetail> {
  const { album, notice } = await knownAlbum(db, spotify, viewer, id);
  const trackRows = await albumTrackIds(db, id);
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

interface TrackFactsRow extends Record<string, unknown> {
  total_likes: number;
  liked: boolean;
}

/**
 * The track as stored, read from Spotify first when it never was whole. Answers 404 when neither
 * knows it; a Spotify failure serves what is stored.
 */
export async function knownTrack(db: Db, spotify: SpotifyClient, viewer: PageViewer, id: string) {
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
  return track;
}

/** `GET /api/track/{id}`. */
export async function trackDetail(
  db: Db,
  spotify: SpotifyClient,
  similarTracks: SimilarTracks,
  viewer: PageViewer,
  id: string,
): Promise<TrackDetail> {
  const track = await knownTrack(db, spotify, viewer, id);
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
  const similar = await similarTracks.of(db, userId, track.uid, versionIds);
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
