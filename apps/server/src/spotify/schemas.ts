import { z } from 'zod';

export const tokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  scope: z.string().default(''),
  /** Absent on some refreshes: the old refresh token then stays valid. */
  refresh_token: z.string().min(1).optional(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;

export const accountsError = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});

export const webApiError = z.object({
  error: z.object({
    status: z.number(),
    message: z.string(),
    reason: z.string().optional(),
  }),
});

export const image = z.object({
  url: z.string(),
  height: z.number().nullable().optional(),
  width: z.number().nullable().optional(),
});

/** GET /me. `email`, `product` and `country` are absent for Development Mode apps. */
export const privateUser = z.object({
  id: z.string(),
  display_name: z.string().nullable().optional(),
  email: z.string().optional(),
  product: z.string().optional(),
  country: z.string().optional(),
  images: z.array(image).optional(),
});
export type PrivateUser = z.infer<typeof privateUser>;
