import type { Album, Artist, Playlist, Track, World } from '../../src/world/model';
import { createWorld } from '../../src/world/world';
import { PREMIUM_ACCOUNT, TEST_START } from './web-api';

/**
 * The default world as the test sandboxes build it (same seed and sizes, so the same catalogue and
 * people), for picking ids to ask about. Its library overlays are its own: changes made through
 * a sandbox's API show in that sandbox only.
 */
export const world: World = createWorld();

/** A well-formed id of nothing in the catalogue. */
export const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
export const MALFORMED_ID = 'not-a-base62-id';

function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the test world has no ${what}`);
  return value;
}

/** An artist with albums, singles and appearances on others' releases. */
export function busyArtist(): Artist {
  return found(
    world.artists.find((artist) => {
      const own = artist.albumIds.map((id) => world.album(id));
      return (
        own.some((album) => album?.albumType === 'album') &&
        own.some((album) => album?.albumType === 'single') &&
        artistAppearances(artist.id).length > 0
      );
    }),
    'artist with albums, singles and appearances',
  );
}

/** Releases of others an artist plays on (it is not among their album artists). */
export function artistAppearances(artistId: string): Album[] {
  return world.albums.filter(
    (album) =>
      !album.artistIds.includes(artistId) &&
      album.trackIds.some((id) => world.track(id)?.artistIds.includes(artistId)),
  );
}

export function albumWithTracks(minimum: number): Album {
  return found(
    world.albums.find((album) => album.trackIds.length >= minimum),
    `album of ${minimum} tracks`,
  );
}

export function someTrack(index = 0): Track {
  return found(world.tracks[index], `track #${index}`);
}

export function someArtist(index = 0): Artist {
  return found(world.artists[index], `artist #${index}`);
}

const library = (account: string) => world.playlistsOf(account, TEST_START);

/** Playlists of the premium test account, as it stands at `TEST_START`. */
export const playlists = {
  ownPublic: (): Playlist =>
    found(
      library(PREMIUM_ACCOUNT).find((p) => p.ownerId === PREMIUM_ACCOUNT && p.public),
      'own public playlist',
    ),
  ownPrivate: (): Playlist =>
    found(
      library(PREMIUM_ACCOUNT).find(
        (p) => p.ownerId === PREMIUM_ACCOUNT && !p.public && !p.collaborative,
      ),
      'own private playlist',
    ),
  /** Someone else's collaborative playlist the account has joined. */
  collaborating: (): Playlist =>
    found(
      library(PREMIUM_ACCOUNT).find((p) => p.ownerId !== PREMIUM_ACCOUNT && p.collaborative),
      'collaborative playlist of someone else in the library',
    ),
  /** Someone else's public playlist the account neither owns nor collaborates on. */
  othersPublic: (): Playlist =>
    found(
      world.playlists.find(
        (p) =>
          p.ownerId !== PREMIUM_ACCOUNT &&
          p.public &&
          !p.collaborative &&
          p.createdAt <= TEST_START &&
          world.playlistItems(p.id, TEST_START).length > 0,
      ),
      "someone else's public playlist",
    ),
  /** Someone else's private playlist the account does not have. */
  othersPrivate: (): Playlist =>
    found(
      world.playlists.find(
        (p) =>
          p.ownerId !== PREMIUM_ACCOUNT &&
          !p.public &&
          !library(PREMIUM_ACCOUNT).some(({ id }) => id === p.id),
      ),
      "someone else's private playlist",
    ),
};
