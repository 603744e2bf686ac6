import { z } from 'zod';
import { REVIEW_FINDING_CATEGORIES, REVIEW_STAGES } from './moderation';
import { multiLine, singleLine } from './text';

// Reports and takedown (issue 44): anyone can report a video (signed in or not, or by token with
// `reports:write`), and administrators decide in the safety queue (/admin/safety) within 48 hours,
// the US TAKE IT DOWN Act's limit for removing non-consensual intimate imagery.

/** Why a video is reported, most serious first. */
export const REPORT_REASONS = ['intimate_image', 'likeness', 'minor', 'violence', 'copyright', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Each reason as the report form and the queue name it. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  intimate_image: 'An intimate image shared without consent',
  likeness: "A real person's likeness used without consent",
  minor: 'It shows a minor',
  violence: 'Graphic violence',
  copyright: 'It copies my work (copyright)',
  other: 'Something else',
};

/** Reasons that are takedown requests about a person shown: they need the reporter's statement. */
export const PERSONAL_REASONS: readonly ReportReason[] = ['intimate_image', 'likeness'];

/** What a takedown request needs (TAKE IT DOWN Act, section 3): good faith, and who asks. */
export const TAKEDOWN_STATEMENT =
  'I state in good faith that this video shows a person without their consent, and that I am that person or am authorised to act for them.';

/** The time an administrator has to decide a report. */
export const DECISION_HOURS = 48;

export const REPORT_STATEMENT_REQUIRED_CODE = 'statement_required';
export const REPORT_STATEMENT_REQUIRED_MESSAGE =
  'A report about a person shown needs your statement: tick the box to confirm it, or choose another reason.';
export const REPORT_CONTACT_REQUIRED_MESSAGE = 'Please give an email address, so we can tell you what we decided.';
export const REPORTED_VIDEO_NOT_FOUND_MESSAGE =
  'We could not find a video at that link. It may have expired or been removed already.';

/** POST /api/reports: the body. `video` is a shared link (watch or file link) or a video id. */
export const newReportSchema = z.strictObject({
  video: z.string().trim().min(1, 'Paste the link to the video, or its id.').max(2000).check(singleLine),
  reason: z.enum(REPORT_REASONS),
  description: z.string().trim().max(2000).check(multiLine).default(''),
  /** The reporter's email; a signed-in reporter's own is used when this is empty. */
  contact: z.union([z.literal(''), z.email('Enter an email address like name@example.com.').max(320)]).default(''),
  /** The takedown statement, confirmed (required for PERSONAL_REASONS). */
  statement: z.boolean().default(false),
});
export type NewReport = z.input<typeof newReportSchema>;

export const reportReceiptSchema = z.object({
  id: z.string(),
  /** When an administrator's decision is due (48 hours after the report). */
  dueAt: z.string(),
  message: z.string(),
});
export type ReportReceipt = z.infer<typeof reportReceiptSchema>;

export const REPORT_RECEIVED_MESSAGE =
  'Thank you. Your report reached the people who run this server; they decide within 48 hours and write to you when they have.';

/** GET /api/watch/:token: what a shared watch page shows. */
export const watchedVideoSchema = z.object({
  id: z.string(),
  videoUrl: z.string(),
  posterUrl: z.string().nullable(),
  duration: z.number(),
  createdAt: z.string(),
  /** Null: kept by its owner. */
  expiresAt: z.string().nullable(),
  /** Who signed its Content Credentials (null: none). */
  signedBy: z.string().nullable(),
});
export type WatchedVideo = z.infer<typeof watchedVideoSchema>;

/** The path of a shared video's watch page. */
export const watchPath = (token: string) => `/watch/${token}`;

export const REPORT_STATUSES = ['open', 'taken_down', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** What an item of the safety queue is: a report, an owner's appeal, or a job screening held. */
export const SAFETY_ITEM_KINDS = ['report', 'appeal', 'flag'] as const;

export const safetyOwnerSchema = z.object({
  id: z.string(),
  email: z.string(),
  strikes: z.number().int(),
  suspended: z.boolean(),
  /** Their videos now, their reports so far, and their videos taken down. */
  videos: z.number().int(),
  reports: z.number().int(),
  takenDown: z.number().int(),
});
export type SafetyOwner = z.infer<typeof safetyOwnerSchema>;

export const safetyItemSchema = z.object({
  /** A report's or appeal's id; a held job's generation id. */
  id: z.string(),
  kind: z.enum(SAFETY_ITEM_KINDS),
  /** A report's or appeal's reason; null for a held job. */
  reason: z.enum(REPORT_REASONS).nullable(),
  /** What screening flagged (held jobs). */
  findings: z.array(z.object({ category: z.enum(REVIEW_FINDING_CATEGORIES), score: z.number() })),
  stage: z.enum(REVIEW_STAGES).nullable(),
  /** The reporter's (or the appealing owner's) words. */
  description: z.string(),
  reporterContact: z.string().nullable(),
  createdAt: z.string(),
  /** 48 hours after createdAt. */
  dueAt: z.string(),
  video: z
    .object({
      id: z.string(),
      prompt: z.string(),
      model: z.string(),
      createdAt: z.string(),
      /** Signed links for the administrator (an hour); null when the file is gone. */
      videoUrl: z.string().nullable(),
      posterUrl: z.string().nullable(),
    })
    .nullable(),
  owner: safetyOwnerSchema.nullable(),
});
export type SafetyItem = z.infer<typeof safetyItemSchema>;

export const safetyOverviewSchema = z.object({
  /** Open items, oldest first (the nearest deadline first). */
  items: z.array(safetyItemSchema),
  stats: z.object({
    open: z.number().int(),
    /** Reports per reason, all time. */
    byReason: z.array(z.object({ reason: z.enum(REPORT_REASONS), count: z.number().int() })),
    decided: z.number().int(),
    /** Median hours from report to decision; null before the first decision. */
    medianDecisionHours: z.number().nullable(),
  }),
});
export type SafetyOverview = z.infer<typeof safetyOverviewSchema>;

/** An administrator's decision on a report (take down, dismiss) or an appeal (grant, dismiss). */
export const SAFETY_ACTIONS = ['take-down', 'dismiss', 'grant'] as const;
export type SafetyAction = (typeof SAFETY_ACTIONS)[number];
/** An administrator's action on a video's owner. */
export const OWNER_ACTIONS = ['warn', 'suspend', 'unsuspend'] as const;
export type OwnerAction = (typeof OWNER_ACTIONS)[number];

export const safetyDecisionSchema = z.strictObject({
  /** Said to the reporter and the owner in the decision's mail (optional). */
  note: z.string().trim().max(1000).check(multiLine).default(''),
});

export const safetyActionResultSchema = z.object({ message: z.string() });

/** What a suspended account is told when it signs in or makes a video. */
export const SUSPENDED_CODE = 'account_suspended';
export const SUSPENDED_MESSAGE =
  'This account is suspended for breaking the content policy. Write to the people who run this server if you think this is a mistake.';

/** GET /api/safety/takedowns: the signed-in owner's videos that were taken down, with their appeal. */
export const ownTakedownSchema = z.object({
  reportId: z.string(),
  reason: z.enum(REPORT_REASONS),
  prompt: z.string(),
  takenDownAt: z.string(),
  note: z.string(),
  /** Null: not appealed yet (an owner may appeal once). */
  appeal: z.object({ status: z.enum(REPORT_STATUSES), createdAt: z.string() }).nullable(),
});
export type OwnTakedown = z.infer<typeof ownTakedownSchema>;

export const newAppealSchema = z.strictObject({
  message: z.string().trim().min(1, 'Say why the video should not have been taken down.').max(2000).check(multiLine),
});
