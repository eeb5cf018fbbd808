import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  albumArtists,
  albums,
  artists,
  trackArtists,
  tracks,
  uidRedirects,
} from '../db/schema/catalog';
import type { FullArtist, SimplifiedAlbum, SpotifyTrack } from '../spotify/schemas';
import { titleKey } from './song-identity';
import { trackSearchText } from './text';

type Image = { url: string; width?: number | null | undefined };

/** The image closest to 300 px wide: big enough for cards, small enough for lists. */
function bestPicture(images: readonly Image[] | null | undefined): string | null {
  if (!images || images.length === 0) return null;
  return [...images].sort(
    (a, b) => Math.abs((a.width ?? 300) - 300) - Math.abs((b.width ?? 300) - 300),
  )[0]!.url;
}

const excluded = (column: string) => sql.raw(`excluded.${column}`);

/**
 * One row per id, in id order: concurrent syncs that write the same catalogue rows then lock
 * them in the same order and cannot deadlock.
 */
export function uniqueById<T>(list: readonly T[], idOf: (item: T) => string): T[] {
  return [...new Map(list.map((item) => [idOf(item), item])).values()].sort((a, b) =>
    idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0,
  );
}

async function upsertSimplifiedAlbums(db: Tx, list: readonly SimplifiedAlbum[]): Promise<void> {
  const unique = uniqueById(list, (album) => album.id);
  if (unique.length === 0) return;
  await db
    .insert(albums)
    .values(
      unique.map((album) => ({
        id: album.id,
        name: album.name,
        albumType: album.album_type ?? null,
        releaseDate: album.release_date ?? null,
        releaseDatePrecision: album.release_date_precision ?? null,
        totalTracks: album.total_tracks ?? null,
        picture: bestPicture(album.images),
      })),
    )
    .onConflictDoUpdate({
      target: albums.id,
      set: {
        name: excluded('name'),
        albumType: sql`coalesce(${excluded('album_type')}, ${albums.albumType})`,
        releaseDate: sql`coalesce(${excluded('release_date')}, ${albums.releaseDate})`,
        releaseDatePrecision: sql`coalesce(${excluded('release_date_precision')}, ${albums.releaseDatePrecision})`,
        totalTracks: sql`coalesce(${excluded('total_tracks')}, ${albums.totalTracks})`,
        picture: sql`coalesce(${excluded('picture')}, ${albums.picture})`,
        updatedAt: sql`now()`,
      },
    });
  const credits = unique.flatMap((album) =>
    album.artists.map((artist, position) => ({ albumId: album.id, position, artistId: artist.id })),
  );
  if (credits.length > 0) await db.insert(albumArtists).values(credits).onConflictDoNothing();
}

async function upsertArtistNames(
  db: Tx,
  list: readonly { id: string; name: string }[],
): Promise<void> {
  const unique = uniqueById(list, (artist) => artist.id);
  if (unique.length === 0) return;
  await db
    .insert(artists)
    .values(unique.map(({ id, name }) => ({ id, name })))
    .onConflictDoUpdate({ target: artists.id, set: { name: excluded('name') } });
}

/** Moves every track of song `from` to song `into`, and remembers the old id. */
async function mergeSongs(db: Tx, from: string, into: string): Promise<void> {
  await db.update(tracks).set({ uid: into }).where(eq(tracks.uid, from));
  await db.update(uidRedirects).set({ toUid: into }).where(eq(uidRedirects.toUid, from));
  await db
    .insert(uidRedirects)
    .values({ fromUid: from, toUid: into })
    .onConflictDoUpdate({ target: uidRedirects.fromUid, set: { toUid: into } });
}

/**
 * Stores Spotify track objects (and their albums and artists) and gives each its song `uid`.
 * Full track objects carry everything Earshot shows, so they count as enriched; the artists in
 * them are simplified and wait for enrichment. Returns the stored track ids (local files, which
 * have none, are skipped).
 */
export async function storeTracks(db: Db | Tx, list: readonly SpotifyTrack[]): Promise<string[]> {
  const known = uniqueById(
    list.filter((t): t is SpotifyTrack & { id: string } => !!t.id),
    (t) => t.id,
  );
  if (known.length === 0) return [];
  const run = async (tx: Tx) => {
    await upsertArtistNames(
      tx,
      known.flatMap((t) => [...t.artists, ...t.album.artists]),
    );
    await upsertSimplifiedAlbums(
      tx,
      known.map((t) => t.album),
    );

    const keys = known.map((t) => titleKey(t.name, t.artists[0]?.name ?? ''));
    const isrcs = known.map((t) => t.external_ids?.isrc).filter((v): v is string => !!v);
    const related = await tx
      .select({ id: tracks.id, uid: tracks.uid, isrc: tracks.isrc, titleKey: tracks.titleKey })
      .from(tracks)
      .where(
        or(
          inArray(
            tracks.id,
            known.map((t) => t.id),
          ),
          isrcs.length > 0 ? inArray(tracks.isrc, isrcs) : undefined,
          inArray(tracks.titleKey, keys),
        ),
      );
    const uidById = new Map(related.map((row) => [row.id, row.uid]));
    const uidByIsrc = new Map<string, string>();
    const uidByKey = new Map<string, string>();
    for (const row of related) {
      if (row.isrc) uidByIsrc.set(row.isrc, row.uid);
      uidByKey.set(row.titleKey, row.uid);
    }

    // One statement for all the tracks (a page of 50 used to be 50 round trips); songs merged
    // on the way also move the tracks already lined up, as they did row by row.
    const rows: (typeof tracks.$inferInsert & { uid: string })[] = [];
    for (const [index, t] of known.entries()) {
      const key = keys[index]!;
      const isrc = t.external_ids?.isrc;
      const previous = uidById.get(t.id);
      const uid = (isrc && uidByIsrc.get(isrc)) ?? previous ?? uidByKey.get(key) ?? t.id;
      if (previous && previous !== uid) {
        await mergeSongs(tx, previous, uid);
        for (const row of rows) if (row.uid === previous) row.uid = uid;
      }
      uidById.set(t.id, uid);
      if (isrc) uidByIsrc.set(isrc, uid);
      uidByKey.set(key, uid);
      rows.push({
        id: t.id,
        uid,
        name: t.name,
        albumId: t.album.id,
        durationMs: t.duration_ms,
        popularity: t.popularity ?? null,
        explicit: t.explicit ?? null,
        isrc: isrc ?? null,
        titleKey: key,
        searchText: trackSearchText(
          t.name,
          t.album.name,
          t.artists.map((artist) => artist.name),
        ),
        trackNumber: t.track_number ?? null,
        discNumber: t.disc_number ?? null,
        enrichedAt: new Date(),
      });
    }
    await tx
      .insert(tracks)
      .values(rows)
      .onConflictDoUpdate({
        target: tracks.id,
        set: {
          uid: excluded('uid'),
          name: excluded('name'),
          albumId: excluded('album_id'),
          durationMs: excluded('duration_ms'),
          popularity: sql`coalesce(${excluded('popularity')}, ${tracks.popularity})`,
          explicit: sql`coalesce(${excluded('explicit')}, ${tracks.explicit})`,
          isrc: sql`coalesce(${excluded('isrc')}, ${tracks.isrc})`,
          titleKey: excluded('title_key'),
          searchText: excluded('search_text'),
          trackNumber: sql`coalesce(${excluded('track_number')}, ${tracks.trackNumber})`,
          discNumber: sql`coalesce(${excluded('disc_number')}, ${tracks.discNumber})`,
          enrichedAt: sql`now()`,
          updatedAt: sql`now()`,
        },
      });
    // Spotify's credits replace what was known before (an import knows only a name). Only tracks
    // whose credits differ are rewritten: a rewrite recounts the listeners' per-artist stats.
    const stored = await tx
      .select()
      .from(trackArtists)
      .where(
        inArray(
          trackArtists.trackId,
          known.map((t) => t.id),
        ),
      );
    const storedCredits = new Map<string, string[]>();
    for (const credit of stored.sort((a, b) => a.position - b.position)) {
      storedCredits.set(credit.trackId, [
        ...(storedCredits.get(credit.trackId) ?? []),
        credit.artistId,
      ]);
    }
    const changed = known.filter(
      (t) => (storedCredits.get(t.id) ?? []).join(',') !== t.artists.map((a) => a.id).join(','),
    );
    if (changed.length > 0) {
      await tx.delete(trackArtists).where(
        inArray(
          trackArtists.trackId,
          changed.map((t) => t.id),
        ),
      );
      const credits = changed.flatMap((t) =>
        t.artists.map((artist, position) => ({ trackId: t.id, position, artistId: artist.id })),
      );
      if (credits.length > 0) await tx.insert(trackArtists).values(credits).onConflictDoNothing();
    }
    return known.map((t) => t.id);
  };
  return db.transaction(run);
}

/** Stores albums (an artist's releases, search results, a discography) with their credited artists. */
export async function storeAlbums(db: Db | Tx, list: readonly SimplifiedAlbum[]): Promise<void> {
  if (list.length === 0) return;
  await db.transaction(async (tx) => {
    await upsertArtistNames(
      tx,
      list.flatMap((album) => album.artists),
    );
    await upsertSimplifiedAlbums(tx, list);
  });
}

/** Stores full artist objects (genres, popularity, followers, picture where the mode has them). */
export async function storeArtists(db: Db | Tx, list: readonly FullArtist[]): Promise<void> {
  const unique = uniqueById(list, (artist) => artist.id);
  if (unique.length === 0) return;
  await db
    .insert(artists)
    .values(
      unique.map((artist) => ({
        id: artist.id,
        name: artist.name,
        genres: artist.genres ?? null,
        popularity: artist.popularity ?? null,
        followers: artist.followers?.total ?? null,
        picture: bestPicture(artist.images),
        enrichedAt: new Date(),
      })),
    )
    .onConflictDoUpdate({
      target: artists.id,
      set: {
        name: excluded('name'),
        genres: sql`coalesce(${excluded('genres')}, ${artists.genres})`,
        popularity: sql`coalesce(${excluded('popularity')}, ${artists.popularity})`,
        followers: sql`coalesce(${excluded('followers')}, ${artists.followers})`,
        picture: sql`coalesce(${excluded('picture')}, ${artists.picture})`,
        enrichedAt: sql`now()`,
        updatedAt: sql`now()`,
      },
    });
}

/** Catalogue rows still waiting for their full object, oldest first. */
export async function unenrichedArtistIds(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: artists.id })
    .from(artists)
    .where(isNull(artists.enrichedAt))
    .orderBy(artists.updatedAt)
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Where a song id now lives after merges (or the id itself), for links and keys that kept it. */
export async function resolveUid(db: Db | Tx, uid: string): Promise<string> {
  const [redirect] = await db
    .select({ toUid: uidRedirects.toUid })
    .from(uidRedirects)
    .where(and(eq(uidRedirects.fromUid, uid), ne(uidRedirects.toUid, uid)));
  return redirect?.toUid ?? uid;
}
