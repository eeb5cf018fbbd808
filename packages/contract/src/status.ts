import { z } from 'zod';

export const backendStatus = z.object({ version: z.string() }).meta({ id: 'BackendStatus' });
export type BackendStatus = z.infer<typeof backendStatus>;
