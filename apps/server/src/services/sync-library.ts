import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { recordLibrarySync, spotifyAccount } from './spotify-accounts';
import { followedArtists, playlists, userPlaylists } from '../db/schema/library';
import type { SpotifyClient, TokenSource } from '../spotify/client';
import type { SimplifiedPlaylist } from '../spotify/schemas';
import { storeArtists, storeTracks } from './catalog';
import { dropSavedTracksNotSeen, newestSavedAt, storeSavedTracks, syncPassStart } from './likes';

export const LIBRARY_INTERVAL_SEC = 6 * 60 * 60;
/** A full pass over saved tracks this often, so removals made in Spotify's apps show up. */
const RECONCILE_AFTER_MS = 24 * 60 * 60 * 1000;

export interface LibrarySyncResult {
  savedTracks: number;
  reconciled: boolean;
  followedArtists: number;
  playlists: number;
  nextDueAt: Date;
}

/**
 * Saved tracks, newest first. Incremental passes stop at the first page that holds only tracks
 * already known; a reconciling pass reads everything and drops what Spotify no longer has.
 */
async function syncSavedTracks(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  userId: string,
  reconcile: boolean,
): Promise<number> {
  const startedAt = await syncPassStart(db);
  const knownUntil = await newestSavedAt(db, userId);
  const seen: string[] = [];
  let next: string | undefined;
  do {
    const page = await spotify.savedTracks(auth, next);
    const ids = new Set(
      await storeTracks(
        db,
        page.items.map((item) => item.track),
      ),
    );
    const rows = page.items
      .filter((item) => item.track.id && ids.has(item.track.id))
      .map((item) => ({ trackId: item.track.id!, addedAt: new Date(item.added_at) }));
    await storeSavedTracks(db, userId, rows, startedAt);
    seen.push(...rows.map((row) => row.trackId));
    const onlyKnown =
      knownUntil !== undefined &&
      page.items.every((item) => new Date(item.added_at).getTime() <= knownUntil);
    if (!reconcile && onlyKnown) break;
    next = page.next ?? undefined;
  } while (next);
  if (reconcile) await dropSavedTracksNotSeen(db, userId, seen, startedAt);
  return seen.length;
}

async function syncFollowedArtists(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  userId: string,
): Promise<number> {
  const ids: string[] = [];
  let next: string | undefined;
  do {
    const page = await spotify.followedArtists(auth, next);
    await storeArtists(db, page.artists.items);
    ids.push(...page.artists.items.map((artist) => artist.id));
    next = page.artists.next ?? undefined;
  } while (next);
  await db.transaction(async (tx) => {
    await tx.delete(followedArtists).where(eq(followedArtists.userId, userId));
    if (ids.length > 0) {
      await tx
        .insert(followedArtists)
        .values([...new Set(ids)].map((artistId) => ({ userId, artistId })));
    }
  });
  return ids.length;
}

export function playlistRow(playlist: SimplifiedPlaylist) {
  return {
    id: playlist.id,
    name: playlist.name,
    description: playlist.description || null,
    picture: playlist.images?.[0]?.url ?? null,
    ownerSpotifyId: playlist.owner.id,
    ownerName: playlist.owner.display_name ?? null,
    isPublic: playlist.public ?? null,
    isCollaborative: playlist.collaborative,
    trackCount: playlist.items?.total ?? playlist.tracks?.total ?? 0,
    snapshotId: playlist.snapshot_id ?? null,
  };
}

const playlistUpdate = {
  name: sql`excluded.name`,
  description: sql`excluded.description`,
  picture: sql`excluded.picture`,
  ownerName: sql`excluded.owner_name`,
  isPublic: sql`excluded.is_public`,
  isCollaborative: sql`excluded.is_collaborative`,
  trackCount: sql`excluded.track_count`,
  snapshotId: sql`excluded.snapshot_id`,
  updatedAt: sql`now()`,
};

/** Mirrors the user's playlists (their library's list, in its order). */
export async function syncPlaylists(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  userId: string,
): Promise<number> {
  const listed: SimplifiedPlaylist[] = [];
  let next: string | undefined;
  do {
    const page = await spotify.playlists(auth, next);
    listed.push(...page.items);
    next = page.next ?? undefined;
  } while (next);
  const unique = [...new Map(listed.map((playlist) => [playlist.id, playlist])).values()];
  await db.transaction(async (tx) => {
    if (unique.length > 0) {
      await tx
        .insert(playlists)
        .values(unique.map(playlistRow))
        .onConflictDoUpdate({ target: playlists.id, set: playlistUpdate });
    }
    await tx.delete(userPlaylists).where(eq(userPlaylists.userId, userId));
    if (unique.length > 0) {
      await tx
        .insert(userPlaylists)
        .values(
          unique.map((playlist, position) => ({ userId, playlistId: playlist.id, position })),
        );
    }
  });
  return unique.length;
}

/** Stores one playlist's metadata as Spotify answered it (the playlist page). */
export async function storePlaylist(db: Db, playlist: SimplifiedPlaylist): Promise<void> {
  await db
    .insert(playlists)
    .values(playlistRow(playlist))
    .onConflictDoUpdate({ target: playlists.id, set: playlistUpdate });
}

/** Mirrors a user's library: saved tracks, followed artists and playlists. */
export async function syncLibrary(
  db: Db,
  spotify: SpotifyClient,
  auth: TokenSource,
  userId: string,
): Promise<LibrarySyncResult> {
  const account = await spotifyAccount(db, userId);
  if (!account) throw new Error(`No Spotify account for user ${userId}`);
  const reconciledAt = account.savedTracksReconciledAt;
  const reconcile = !reconciledAt || Date.now() - reconciledAt.getTime() > RECONCILE_AFTER_MS;
  const saved = await syncSavedTracks(db, spotify, auth, userId, reconcile);
  const followed = await syncFollowedArtists(db, spotify, auth, userId);
  const listed = await syncPlaylists(db, spotify, auth, userId);
  const nextDueAt = new Date(
    Date.now() + LIBRARY_INTERVAL_SEC * (0.9 + Math.random() * 0.2) * 1000,
  );
  await recordLibrarySync(db, userId, { nextDueAt, reconciled: reconcile });
  return {
    savedTracks: saved,
    reconciled: reconcile,
    followedArtists: followed,
    playlists: listed,
    nextDueAt,
  };
}
