import { z } from 'zod';
import { GENERATION_STATUSES } from './generations';
import { REVIEW_FINDING_CATEGORIES, REVIEW_STAGES } from './moderation';
import { singleLine } from './text';

// The jobs console (issue 31): GET /api/admin/jobs and its three actions, for administrators only.

export const ADMIN_JOBS_DEFAULT_LIMIT = 50;
export const ADMIN_JOBS_MAX_LIMIT = 200;
/** Failures are grouped over this many hours. */
export const FAILURE_WINDOW_HOURS = 24;

export const adminJobsQuerySchema = z.object({
  /** Part of the owner's email. */
  user: z.string().trim().max(200).check(singleLine).optional(),
  /** A model id, exactly. */
  model: z.string().trim().max(100).check(singleLine).optional(),
  status: z.enum(GENERATION_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_JOBS_MAX_LIMIT).default(ADMIN_JOBS_DEFAULT_LIMIT),
});
export type AdminJobsQuery = z.infer<typeof adminJobsQuerySchema>;

export const adminJobSchema = z.object({
  id: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  model: z.string(),
  status: z.enum(GENERATION_STATUSES),
  prompt: z.string(),
  attempts: z.number().int(),
  /** The worker holding its lease (a running job), else null. */
  worker: z.string().nullable(),
  progress: z.number().int(),
  stage: z.string().nullable(),
  errorMessage: z.string().nullable(),
  paidWith: z.string(),
  creditsCharged: z.number(),
  refunded: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** What screening flagged (in the description, an input or the finished video) of a job held for review; null when not held. */
  heldForReview: z
    .object({
      findings: z.array(z.object({ category: z.enum(REVIEW_FINDING_CATEGORIES), score: z.number() })),
      heldAt: z.string(),
      stage: z.enum(REVIEW_STAGES),
      /** A held finished video's file and poster for the administrator to watch (signed links, an hour). */
      video: z.string().nullable(),
      poster: z.string().nullable(),
    })
    .nullable(),
  /** The free re-run an administrator made of this failed job (a job is re-run once), else null. */
  rerunId: z.string().nullable(),
});
export type AdminJob = z.infer<typeof adminJobSchema>;

export const adminJobsOverviewSchema = z.object({
  queue: z.object({
    pending: z.number().int(),
    processing: z.number().int(),
    /** Seconds the oldest runnable pending job has waited; 0 when none. */
    oldestWaitSeconds: z.number(),
  }),
  running: z.array(adminJobSchema),
  /** Jobs held for review (screening flagged their description), oldest first: each waits for Approve or Reject. */
  held: z.array(adminJobSchema),
  /** Failures of the last FAILURE_WINDOW_HOURS hours by model and reason, most frequent first. */
  failures: z.array(z.object({ model: z.string(), reason: z.string(), count: z.number().int(), lastAt: z.string() })),
  /** The jobs the filters select, newest first. */
  jobs: z.array(adminJobSchema),
  models: z.array(z.string()),
});
export type AdminJobsOverview = z.infer<typeof adminJobsOverviewSchema>;

export const adminJobActionSchema = z.object({ message: z.string(), job: adminJobSchema });
export type AdminJobAction = z.infer<typeof adminJobActionSchema>;

/** What an administrator may do to a job. */
export const ADMIN_JOB_ACTIONS = ['cancel', 'rerun', 'refund', 'approve', 'reject'] as const;
export type AdminJobActionName = (typeof ADMIN_JOB_ACTIONS)[number];
