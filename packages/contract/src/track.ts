import { z } from 'zod';

/** A track as Earshot shows it everywhere (docs/product.md §3, the activity item's `track`). */
export const trackSummary = z
  .object({
    id: z.string(),
    /** The song: shared by the Spotify versions of one recording. */
    uid: z.string(),
    title: z.string(),
    artists: z.array(z.object({ id: z.string(), name: z.string() })),
    album: z
      .object({
        id: z.string(),
        name: z.string(),
        picture: z.string().nullable(),
        release_date: z.string().nullable(),
      })
      .nullable(),
    /** Milliseconds. */
    duration: z.number().int().nullable(),
    popularity: z.number().int().nullable(),
  })
  .meta({ id: 'TrackSummary' });
export type TrackSummary = z.infer<typeof trackSummary>;
