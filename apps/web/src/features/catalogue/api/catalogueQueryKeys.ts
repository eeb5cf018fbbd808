/** Query keys of the catalogue pages; `all` refreshes every one of them (after a like or follow). */
export const catalogueQueryKeys = {
  all: ['catalogue'] as const,
  artist: (id: string) => ['catalogue', 'artist', id] as const,
  artistTracks: (id: string) => ['catalogue', 'artist', id, 'tracks'] as const,
  artistAlbums: (id: string) => ['catalogue', 'artist', id, 'albums'] as const,
  track: (id: string) => ['catalogue', 'track', id] as const,
  album: (id: string) => ['catalogue', 'album', id] as const,
  playlist: (id: string) => ['catalogue', 'playlist', id] as const,
  playlists: ['catalogue', 'playlists'] as const,
};

/**
 * The catalogue pages are public: a 401/403 has a meaning of its own there (a private playlist)
 * and never sends the visitor to the login page.
 */
export const publicPageRequest = { redirectOnAuthFailure: false } as const;
