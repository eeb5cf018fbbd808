import { z } from 'zod';

/** Every error answer of the API, whatever its status. */
export const errorBody = z.object({ detail: z.string() }).meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBody>;
