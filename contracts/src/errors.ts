import { z } from 'zod';

/** Every error the API returns has this shape (DESIGN.md §5). */
export const ApiError = z.object({
  error: z.string().describe('stable machine-readable code'),
  message: z.string().describe('user-facing text'),
});
export type ApiError = z.infer<typeof ApiError>;
