import { z } from 'zod';
import {
  DEFAULT_VIDEO_RETENTION_HOURS,
  KEEP_GROUPS,
  isKeepGroup,
  type KeepGroup,
  MAX_VIDEO_RETENTION_HOURS,
  MIN_VIDEO_RETENTION_HOURS,
} from '../shared/retention';

/**
 * How long videos are kept and who may keep one longer (issue 32). config.ts spreads `retentionEnv`
 * into its schema and calls readRetentionConfig; nothing here reads process.env.
 */
export const retentionEnv = {
  /** Hours a finished video (and an upload) is kept before its files are deleted; the spec's 24 by default. */
  VIDEO_RETENTION_HOURS: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce
      .number({ error: 'must be a whole number of hours' })
      .int({ error: 'must be a whole number of hours' })
      .min(MIN_VIDEO_RETENTION_HOURS, { error: `must be at least ${MIN_VIDEO_RETENTION_HOURS} hour` })
      .max(MAX_VIDEO_RETENTION_HOURS, { error: `must be at most ${MAX_VIDEO_RETENTION_HOURS} hours (a year)` })
      .default(DEFAULT_VIDEO_RETENTION_HOURS),
  ),
  /** Who may mark a video kept (never deleted by the sweeper): a comma-separated list of groups; empty is nobody. */
  KEEP_VIDEOS_FOR: z
    .string()
    .optional()
    .transform((v) => [
      ...new Set(
        (v ?? '')
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ])
    .superRefine((groups, check) => {
      for (const group of groups)
        if (!isKeepGroup(group))
          check.addIssue({ code: 'custom', message: `'${group}' is not one of ${KEEP_GROUPS.join(', ')}` });
    })
    .transform((groups) => groups.filter((group): group is KeepGroup => isKeepGroup(group))),
};

type RetentionEnv = z.output<z.ZodObject<typeof retentionEnv>>;

export interface RetentionConfig {
  /** VIDEO_RETENTION_HOURS: a video's files are deleted this long after it completed (an upload's after it was made). */
  videoHours: number;
  /** KEEP_VIDEOS_FOR: who may keep a video past that; empty is nobody. */
  keepFor: KeepGroup[];
}

export function readRetentionConfig(env: RetentionEnv): RetentionConfig {
  return { videoHours: env.VIDEO_RETENTION_HOURS, keepFor: env.KEEP_VIDEOS_FOR };
}
