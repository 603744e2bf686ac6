import { z } from 'zod';

/** Environment fields the config parts share; nothing here reads process.env. */

/** A trimmed text, undefined when unset or blank. */
export const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

/** `true` or `false`, `fallback` when unset or blank. */
export const flag = (fallback: 'true' | 'false') =>
  z
    .string()
    .optional()
    .transform((v) => v?.trim() || fallback)
    .pipe(z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true'));
