import type { SpotifyTrack } from '../../src/spotify/schemas';

/**
 * A track as Spotify's API describes it, alone on an album of its own (`al-<id>`) by the same
 * artist: what most tests store before they play, like or export it.
 */
export function soloTrack(
  artist: { id: string; name: string },
  id: string,
  details: {
    name?: string;
    album?: string;
    releaseDate?: string;
    durationMs?: number;
    /** Versions of one recording share it (song identity). */
    isrc?: string;
  } = {},
): SpotifyTrack {
  return {
    id,
    name: details.name ?? `Song ${id}`,
    album: {
      id: `al-${id}`,
      name: details.album ?? `Album ${id}`,
      ...(details.releaseDate !== undefined && { release_date: details.releaseDate }),
      artists: [artist],
      images: [],
    },
    artists: [artist],
    duration_ms: details.durationMs ?? 200_000,
    ...(details.isrc !== undefined && { external_ids: { isrc: details.isrc } }),
  };
}
