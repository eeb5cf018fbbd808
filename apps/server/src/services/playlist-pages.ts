import type { PlaylistDetail, PlaylistList, PlaylistSummary } from '@earshot/contract/catalogue';
import { PRIVATE_PLAYLIST_TEXT } from '@earshot/contract/catalogue-meta';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { spotifyAccount } from './spotify-accounts';
import { playlistItems, playlists } from '../db/schema/library';
import { HttpError } from '../errors';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import { SpotifyError } from '../spotify/errors';
import { track as trackSchema, type SpotifyTrack } from '../spotify/schemas';
import { storeTracks } from './catalog';
import {
  catalogueTracks,
  isStale,
  isUpstreamFailure,
  upstreamNotice,
  type PageViewer,
} from './catalogue-viewer';
import { storePlaylist, syncPlaylists } from './sync-library';

/** A playlist's metadata (name, snapshot) is re-read from Spotify after this long. */
const PLAYLIST_STALE_MS = 10 * 60 * 1000;
/** Items read at most per playlist (50 a page). */
const MAX_ITEM_PAGES = 40;

/** Development Mode: Spotify lists a playlist's items only to its owner and collaborators. */
const ITEMS_CLOSED_NOTICE =
  "Spotify shows this playlist's tracks only to its owner and collaborators.";

/** A visitor's page when Earshot has no token of its own: a logged-in viewer's Spotify reads items. */
const ITEMS_NEED_LOGIN_NOTICE = "Log in to see this playlist's tracks.";

interface PlaylistRow extends Record<string, unknown> {
  id: string;
  name: string;
  picture: string | null;
  description: string | null;
  owner_spotify_id: string;
  owner_name: string | null;
  owner_username: string | null;
  owner_user_name: string | null;
  is_public: boolean | null;
  is_collaborative: boolean;
  track_count: number;
  snapshot_id: string | null;
  items_snapshot_id: string | null;
  /** Raw rows: the driver may hand timestamps over as text. */
  updated_at: Date | string;
  added_at: Date | string | null;
}

const playlistColumns = sql`
  p.id, p.name, p.picture, p.description, p.owner_spotify_id, p.owner_name,
  owner.username AS owner_username, owner.name AS owner_user_name,
  p.is_public, p.is_collaborative, p.track_count, p.snapshot_id, p.items_snapshot_id,
  p.updated_at,
  (SELECT min(i.added_at) FROM playlist_items i WHERE i.playlist_id = p.id) AS added_at`;

function toSummary(row: PlaylistRow): PlaylistSummary {
  return {
    id: row.id,
    name: row.name,
    picture: row.picture,
    description: row.description,
    owner: {
      id: row.owner_spotify_id,
      username: row.owner_username,
      name: row.owner_name ?? row.owner_user_name ?? row.owner_spotify_id,
    },
    is_public: row.is_public,
    is_collaborative: row.is_collaborative,
    track_count: row.track_count,
    added_at: row.added_at ? new Date(row.added_at).toISOString() : null,
  };
}

async function playlistRow(db: Db, id: string): Promise<PlaylistRow | undefined> {
  const result = await db.execute<PlaylistRow>(sql`
    SELECT ${playlistColumns}
    FROM playlists p LEFT JOIN users owner ON owner.spotify_id = p.owner_spotify_id
    WHERE p.id = ${id}`);
  return result.rows[0];
}

/** Reads every item of the playlist from Spotify and replaces the stored ones. */
async function fetchItems(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  playlistId: string,
  snapshotId: string | null,
): Promise<void> {
  const listed: { track: SpotifyTrack; addedAt: Date | null }[] = [];
  let next: string | undefined;
  let pages = 0;
  do {
    const page = await spotify.playlistItems(auth, playlistId, next);
    for (const entry of page.items) {
      // Episodes and removed tracks are not tracks: they are left out.
      const parsed = trackSchema.safeParse(entry.item ?? entry.track);
      if (parsed.success && parsed.data.id) {
        listed.push({
          track: parsed.data,
          addedAt: entry.added_at ? new Date(entry.added_at) : null,
        });
      }
    }
    next = page.next ?? undefined;
  } while (next && ++pages < MAX_ITEM_PAGES);
  const stored = new Set(
    await storeTracks(
      db,
      listed.map((entry) => entry.track),
    ),
  );
  const rows = listed
    .filter((entry) => stored.has(entry.track.id!))
    .map((entry, position) => ({
      playlistId,
      position,
      trackId: entry.track.id!,
      addedAt: entry.addedAt,
    }));
  await db.transaction(async (tx) => {
    await tx.delete(playlistItems).where(eq(playlistItems.playlistId, playlistId));
    if (rows.length > 0) await tx.insert(playlistItems).values(rows);
    await tx
      .update(playlists)
      .set({ itemsSnapshotId: snapshotId, itemsFetchedAt: new Date() })
      .where(eq(playlists.id, playlistId));
  });
}

/**
 * Brings the stored playlist up to date with Spotify: its metadata when unknown or stale, its
 * items when its snapshot moved. Answers the notice when Spotify could not; throws when nothing
 * is stored to fall back on.
 */
async function fillPlaylist(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  id: string,
): Promise<string | null> {
  let row = await playlistRow(db, id);
  try {
    if (!row || isStale(new Date(row.updated_at), PLAYLIST_STALE_MS)) {
      await storePlaylist(db, await spotify.playlist(auth, id));
      row = await playlistRow(db, id);
    }
  } catch (error) {
    // Gone from Spotify, or never readable by this viewer: what is stored still stands.
    if (error instanceof SpotifyError && error.status === 404) {
      if (!row) throw new HttpError(404, 'Playlist not found');
    } else if (!isUpstreamFailure(error) || !row) {
      throw error;
    } else {
      return upstreamNotice(error);
    }
  }
  if (!row || row.items_snapshot_id === row.snapshot_id) return null;
  try {
    await fetchItems(db, spotify, auth, id, row.snapshot_id);
    return null;
  } catch (error) {
    if (error instanceof SpotifyError && error.status === 403) return ITEMS_CLOSED_NOTICE;
    if (isUpstreamFailure(error)) return upstreamNotice(error);
    throw error;
  }
}

/**
 * Whether the viewer may see the playlist: public ones are for everyone, the others for their
 * owner and, when collaborative, the collaborators (who have it in their library).
 */
async function mayView(db: Db, viewer: PageViewer, row: PlaylistRow): Promise<boolean> {
  if (row.is_public === true) return true;
  if (!viewer.user) return false;
  if (viewer.user.spotifyId === row.owner_spotify_id) return true;
  if (!row.is_collaborative) return false;
  const result = await db.execute(sql`
    SELECT 1 FROM user_playlists
    WHERE user_id = ${viewer.user.id}::uuid AND playlist_id = ${row.id}`);
  return result.rows.length > 0;
}

interface ItemRow extends Record<string, unknown> {
  track_id: string;
  added_at: Date | string | null;
}

/**
 * The playlist as stored, brought up to date with Spotify first, with the notice when Spotify
 * could not. Answers 404 when no one knows it, and 403 to those a private one is not for (before
 * anything about it is asked of Spotify).
 */
async function viewablePlaylist(db: Db, spotify: SpotifyClient, viewer: PageViewer, id: string) {
  const known = await playlistRow(db, id);
  if (known && !(await mayView(db, viewer, known))) {
    throw new HttpError(403, PRIVATE_PLAYLIST_TEXT);
  }
  const notice = viewer.spotify ? await fillPlaylist(db, spotify, viewer.spotify, id) : null;
  const row = await playlistRow(db, id);
  if (!row) throw new HttpError(404, 'Playlist not found');
  if (!(await mayView(db, viewer, row))) throw new HttpError(403, PRIVATE_PLAYLIST_TEXT);
  return { row, notice };
}

/** What the playlist page's head shows (the server's page metadata). */
export async function playlistHead(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer,
  id: string,
): Promise<PlaylistSummary> {
  return toSummary((await viewablePlaylist(db, spotify, viewer, id)).row);
}

/** `GET /api/playlist/{id}`. */
export async function playlistDetail(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer,
  id: string,
): Promise<PlaylistDetail> {
  const { row, notice } = await viewablePlaylist(db, spotify, viewer, id);
  const items = await db.execute<ItemRow>(sql`
    SELECT track_id, added_at FROM playlist_items WHERE playlist_id = ${id} ORDER BY position`);
  const tracks = await catalogueTracks(
    db,
    viewer,
    items.rows.map((item) => item.track_id),
  );
  const addedAt = new Map(items.rows.map((item) => [item.track_id, item.added_at]));
  const itemsKnown = row.items_snapshot_id !== null;
  return {
    ...toSummary(row),
    is_owner: viewer.user?.spotifyId === row.owner_spotify_id,
    tracks: tracks.map((entry) => {
      const at = addedAt.get(entry.track.id);
      return { ...entry, added_at: at ? new Date(at).toISOString() : null };
    }),
    notice:
      notice ??
      (itemsKnown || row.track_count === 0
        ? null
        : viewer.spotify
          ? ITEMS_CLOSED_NOTICE
          : ITEMS_NEED_LOGIN_NOTICE),
  };
}

/**
 * `GET /api/spotify/playlists`: the viewer's playlists as last mirrored; read from Spotify first
 * when their library was never synced.
 */
export async function viewerPlaylists(
  db: Db,
  spotify: SpotifyClient,
  viewer: PageViewer & { user: NonNullable<PageViewer['user']> },
): Promise<PlaylistList> {
  const account = await spotifyAccount(db, viewer.user.id);
  if (account && !account.librarySyncedAt && viewer.spotify) {
    await syncPlaylists(db, spotify, viewer.spotify, viewer.user.id);
  }
  const result = await db.execute<PlaylistRow>(sql`
    SELECT ${playlistColumns}
    FROM user_playlists up
    JOIN playlists p ON p.id = up.playlist_id
    LEFT JOIN users owner ON owner.spotify_id = p.owner_spotify_id
    WHERE up.user_id = ${viewer.user.id}::uuid
    ORDER BY up.position`);
  const items = result.rows.map(toSummary);
  return { items, total: items.length };
}
