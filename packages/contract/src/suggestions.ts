import { z } from 'zod';
import { activityItem } from './activity';

export const SUGGESTIONS_DEFAULT_LIMIT = 20;
export const SUGGESTIONS_MAX_LIMIT = 50;

/** The four Discover sections, as named in their `GET /api/suggestions/{section}` paths. */
export const SUGGESTION_SECTIONS = [
  'unheard-from-followed',
  'like-on-repeat',
  'friends-favorites',
  'rediscover-likes',
] as const;
export const suggestionSection = z.enum(SUGGESTION_SECTIONS);
export type SuggestionSection = z.infer<typeof suggestionSection>;

/** Like Your On-Repeat's windows in days; without `days`, all time. */
export const ON_REPEAT_DAYS = [7, 30, 90, 365] as const;

const limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(SUGGESTIONS_MAX_LIMIT)
  .default(SUGGESTIONS_DEFAULT_LIMIT);

/** `GET /api/suggestions/unheard-from-followed`, `/friends-favorites`, `/rediscover-likes`. */
export const suggestionsQuery = z.object({ limit });
export type SuggestionsQuery = z.input<typeof suggestionsQuery>;

/** `GET /api/suggestions/like-on-repeat`: `days` 7, 30, 90 or 365; absent for all time. */
export const onRepeatQuery = z.object({
  limit,
  days: z
    .enum(ON_REPEAT_DAYS.map(String) as ['7', '30', '90', '365'])
    .transform(Number)
    .optional(),
});
export type OnRepeatQuery = z.input<typeof onRepeatQuery>;

/**
 * A suggested track (docs/product.md, Discover): the track and the viewer's like as the feed's
 * items carry them, and a short sentence saying why it is suggested.
 */
export const suggestionItem = activityItem
  .pick({ track: true, liked: true })
  .extend({ reason: z.string() })
  .meta({ id: 'SuggestionItem' });
export type SuggestionItem = z.infer<typeof suggestionItem>;

export const suggestionList = z
  .object({ items: z.array(suggestionItem) })
  .meta({ id: 'SuggestionList' });
export type SuggestionList = z.infer<typeof suggestionList>;
