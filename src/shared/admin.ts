import { z } from 'zod';
import { authUserSchema, subscriptionStatusSchema } from './auth';
import { singleLine } from './text';

/** One row of GET /api/admin/users (docs/product-rules.md, Administration); credit figures are numbers of credits. */
export const adminUserSchema = authUserSchema.omit({ plan: true, emailVerifiedAt: true, completedTours: true }).extend({
  availableCredits: z.number(),
  totalCreditsUsed: z.number(),
  creditsLast30Days: z.number(),
  totalLifetimeCredits: z.number(),
  /** A Stripe subscription is running: deleting or deactivating the user cancels it at Stripe first. */
  hasStripeSubscription: z.boolean().optional(),
  /**
   * The user's own daily spend cap in credits (docs/product-rules.md, Paying for a generation): null follows the
   * operator's default (DAILY_SPEND_CAP_CREDITS), 0 means no cap for this user. Always sent.
   */
  dailySpendCap: z.number().nullable().optional(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListSchema = z.array(adminUserSchema);

export const ADMIN_USER_SORTS = [
  'createdAt',
  'email',
  'name',
  'availableCredits',
  'creditsLast30Days',
  'totalLifetimeCredits',
  'totalCreditsUsed',
] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
export const ADMIN_USERS_DEFAULT_LIMIT = 100;
export const ADMIN_USERS_MAX_LIMIT = 500;
/** Header carrying the cursor of the next page of GET /api/admin/users. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

export const adminUserListQuerySchema = z.object({
  q: z.string().trim().max(200).check(singleLine).optional(),
  sort: z.enum(ADMIN_USER_SORTS).default('createdAt'),
  order: z.enum(['asc', 'desc']).optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_USERS_MAX_LIMIT).default(ADMIN_USERS_DEFAULT_LIMIT),
  cursor: z.string().max(500).check(singleLine).optional(),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

/**
 * Most credits one administrative change sets or grants. Balances and running totals are 64-bit
 * counters of hundredths, so no sequence of such changes can overflow them.
 */
export const MAX_ADMIN_CREDITS = 10_000_000;

/** Whether a number of credits is whole hundredths (the ledger's unit), allowing for binary fractions: 0.29 * 100 is 28.999999999999996. */
export function hasAtMostTwoDecimals(credits: number): boolean {
  return Number.isFinite(credits) && Math.abs(credits * 100 - Math.round(credits * 100)) < 1e-6;
}

/** A credit figure an administrator sets: up to two decimals (balances are hundredths of a credit). */
const creditFigure = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(0, `${field} cannot be negative`)
    .max(MAX_ADMIN_CREDITS, `${field} is too large`)
    .refine(hasAtMostTwoDecimals, `${field} can have at most two decimals`);

const optionalName = z
  .string()
  .trim()
  .max(100, 'must be at most 100 characters')
  .check(singleLine)
  .nullable()
  .optional()
  .transform((v) => (v ? v : null));

/**
 * The row as the administrator saw it when they began editing. Fields left as they were are not
 * written (a user may have spent a credit meanwhile), and a credit figure changed both by the
 * administrator and by someone else meanwhile is refused (409 stale_edit) rather than overwritten.
 */
export const adminUserSeenSchema = z
  .strictObject({
    firstName: z.string().max(100).check(singleLine).nullable(),
    lastName: z.string().max(100).check(singleLine).nullable(),
    email: z.string().max(254).check(singleLine),
    availableCredits: z.number().min(0).max(Number.MAX_SAFE_INTEGER),
    totalCreditsUsed: z.number().min(0).max(Number.MAX_SAFE_INTEGER),
    subscriptionStatus: subscriptionStatusSchema,
    dailySpendCap: z.number().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
  })
  .partial();
export type AdminUserSeen = z.infer<typeof adminUserSeenSchema>;

/** PATCH /api/admin/users/{id}: the spec's admin edit payload, with what the administrator saw. */
export const adminUserUpdateSchema = z.strictObject({
  firstName: optionalName,
  lastName: optionalName,
  email: z.string().trim().toLowerCase().max(254).check(singleLine).pipe(z.email('must be a valid email address')),
  availableCredits: creditFigure('availableCredits'),
  totalCreditsUsed: creditFigure('totalCreditsUsed'),
  subscriptionStatus: subscriptionStatusSchema,
  /** The user's own daily spend cap in credits; null: the default; 0: no cap; left out: unchanged. */
  dailySpendCap: creditFigure('dailySpendCap').nullable().optional(),
  original: adminUserSeenSchema.optional(),
});
export type AdminUserUpdate = z.infer<typeof adminUserUpdateSchema>;

/** The delete dialog's extra line for a user whose subscription is running. */
export const ADMIN_DELETE_SUBSCRIPTION_WARNING =
  'This user has an active subscription: deleting them cancels it at Stripe first, so they are not charged again.';

export function adminDeleteConfirmation(email: string): string {
  return `Are you sure you want to delete user ${email}? This action cannot be undone and will permanently delete all their data.`;
}

/** GET /api/admin/stats: the four tiles, over all users. */
export const adminStatsSchema = z.object({
  totalUsers: z.number(),
  activeCredits: z.number(),
  creditsUsed: z.number(),
  creditsLast30Days: z.number(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;
