import { z } from 'zod';

/**
 * The logged-in user (spec section 3). Spotify apps in Development Mode hide the e-mail and
 * the plan, so both can be unknown (null); the UI must cope.
 */
export const currentUser = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    username: z.string(),
    name: z.string(),
    picture: z.string().nullable(),
    is_admin: z.boolean(),
    subscribed: z.boolean().nullable(),
  })
  .meta({ id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof currentUser>;
