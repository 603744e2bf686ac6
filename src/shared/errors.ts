import { z } from 'zod';
import { multiLine, singleLine } from './text';

/** Every error the API answers has this body: a stable snake_case code and a human sentence. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * The window a report's timestamp must fall in: wide enough for any client clock, narrow enough
 * that the database can store it (year 0, for one, it cannot).
 */
export const ERROR_REPORT_EARLIEST = '2000-01-01T00:00:00Z';
export const ERROR_REPORT_LATEST = '2100-01-01T00:00:00Z';

/** Body of POST /api/errors/report (docs/product-rules.md, Wording). */
export const errorReportSchema = z.strictObject({
  message: z.string().max(4000).check(multiLine),
  stack: z.string().max(8000).check(multiLine).optional().nullable(),
  componentStack: z.string().max(8000).check(multiLine).optional().nullable(),
  url: z.string().max(2000).check(singleLine),
  userAgent: z.string().max(1000).check(singleLine),
  timestamp: z
    .string()
    .datetime({ offset: true })
    .refine((text) => {
      const time = Date.parse(text);
      return time >= Date.parse(ERROR_REPORT_EARLIEST) && time < Date.parse(ERROR_REPORT_LATEST);
    }, 'must be a date from the year 2000 to 2099'),
  errorId: z.string().regex(/^err_\d+_[a-z0-9]+$/, 'must look like err_{timestamp}_{random}'),
});
export type ErrorReport = z.infer<typeof errorReportSchema>;

/** Largest error report accepted, in bytes; larger bodies are refused with 413. */
export const ERROR_REPORT_MAX_BYTES = 16 * 1024;
