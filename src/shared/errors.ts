import { z } from 'zod';

/** Every error the API answers has this body: a stable snake_case code and a human sentence. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Body of POST /api/errors/report (spec section 3). */
export const errorReportSchema = z.object({
  message: z.string().max(4000),
  stack: z.string().max(8000).optional().nullable(),
  componentStack: z.string().max(8000).optional().nullable(),
  url: z.string().max(2000),
  userAgent: z.string().max(1000),
  timestamp: z.string().datetime({ offset: true }),
  errorId: z.string().regex(/^err_\d+_[a-z0-9]+$/, 'must look like err_{timestamp}_{random}'),
});
export type ErrorReport = z.infer<typeof errorReportSchema>;

/** Largest error report accepted, in bytes; larger bodies are refused with 413. */
export const ERROR_REPORT_MAX_BYTES = 16 * 1024;
