import { z } from 'zod';

/** Every error answer of the API: a French message for the user, an optional stable code. */
export const ZApiError = z.object({
  message: z.string(),
  code: z.string().optional(),
});
export type TApiError = z.infer<typeof ZApiError>;
