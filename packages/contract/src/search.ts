import { z } from 'zod';
import { trackSummary } from './track';

/** Results per type at most (docs/product.md §9). */
export const SEARCH_MAX_LIMIT = 50;
/** Longer queries are refused: no name Earshot stores is this long. */
export const SEARCH_MAX_QUERY_LENGTH = 200;

/** `GET /api/search` (docs/product.md §7). */
export const searchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Type something to search for')
    .max(SEARCH_MAX_QUERY_LENGTH)
    // PostgreSQL text cannot hold NUL: refuse it here rather than fail in SQL.
    .refine((text) => !text.includes('\u0000'), 'Must not contain NUL characters'),
  limit: z.coerce.number().int().min(1).max(SEARCH_MAX_LIMIT).default(SEARCH_MAX_LIMIT),
});
export type SearchQuery = z.input<typeof searchQuery>;

export const trackResult = z
  .object({ type: z.literal('track'), id: z.string(), data: z.object({ track: trackSummary }) })
  .meta({ id: 'TrackSearchResult' });

export const albumResult = z
  .object({
    type: z.literal('album'),
    id: z.string(),
    data: z.object({ picture: z.string().nullable(), name: z.string() }),
  })
  .meta({ id: 'AlbumSearchResult' });

export const artistResult = z
  .object({
    type: z.literal('artist'),
    id: z.string(),
    /** `genres` is empty where Spotify hides them (Development Mode apps). */
    data: z.object({
      picture: z.string().nullable(),
      name: z.string(),
      genres: z.array(z.string()),
    }),
  })
  .meta({ id: 'ArtistSearchResult' });

export const userResult = z
  .object({
    type: z.literal('user'),
    id: z.string(),
    data: z.object({ picture: z.string().nullable(), name: z.string(), username: z.string() }),
  })
  .meta({ id: 'UserSearchResult' });

export type TrackResult = z.infer<typeof trackResult>;
export type AlbumResult = z.infer<typeof albumResult>;
export type ArtistResult = z.infer<typeof artistResult>;
export type UserResult = z.infer<typeof userResult>;
export type SearchResult = TrackResult | AlbumResult | ArtistResult | UserResult;

/** Each type best first: exact and prefix name matches, then the most listened to in Earshot. */
export const searchResults = z
  .object({
    tracks: z.array(trackResult),
    albums: z.array(albumResult),
    artists: z.array(artistResult),
    /** Exact and prefix matches first, then the viewer's friends. */
    users: z.array(userResult),
  })
  .meta({ id: 'SearchResults' });
export type SearchResults = z.infer<typeof searchResults>;
