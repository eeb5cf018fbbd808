import { z } from 'zod';
import { activityItem } from './activity';

/** The viewer's ignored items (docs/product.md §3, "Ignored list"). */
export const ignoredList = z
  .object({
    artists: z.array(
      z.object({
        artist_id: z.string(),
        name: z.string(),
        is_global: z.boolean(),
        reported: z.boolean(),
      }),
    ),
    /** Activity items (each with `track.uid`); `date` is when it was ignored. */
    tracks: z.array(activityItem),
  })
  .meta({ id: 'IgnoredList' });
export type IgnoredList = z.infer<typeof ignoredList>;

export const ignoreState = z
  .object({ ignored: z.boolean(), reported: z.boolean(), is_global: z.boolean() })
  .meta({ id: 'IgnoreState' });
export type IgnoreState = z.infer<typeof ignoreState>;
