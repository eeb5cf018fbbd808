import { z } from 'zod';

export const backendStatus = z
  .object({
    version: z.string(),
    /** Where the browser reports its errors (Sentry), present only when the server has one. */
    sentry_dsn: z.string().optional(),
  })
  .meta({ id: 'BackendStatus' });
export type BackendStatus = z.infer<typeof backendStatus>;
