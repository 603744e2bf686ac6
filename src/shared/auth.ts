import { z } from 'zod';
import { singleLine } from './text';

export const PLANS = ['JUST_FOR_FUN'] as const;
export const DEFAULT_PLAN = 'JUST_FOR_FUN';
export const planSchema = z.enum(PLANS);
export type Plan = z.infer<typeof planSchema>;

export const SUBSCRIPTION_STATUSES = ['active', 'inactive', 'trial', 'premium_unlimited'] as const;
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** How a subscription status reads (admin table, badges): premium_unlimited shows as Admin. */
export function subscriptionStatusLabel(status: SubscriptionStatus): string {
  switch (status) {
    case 'premium_unlimited':
      return 'Admin';
    case 'active':
      return 'Active';
    case 'trial':
      return 'Trial';
    case 'inactive':
      return 'Inactive';
  }
}

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** An email as accounts store it: trimmed, lower case, email-shaped (registration and an email change). */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .check(singleLine)
  .pipe(z.email('must be a valid email address'));

/** A password being chosen (registration, a reset, a change on /account): one set of rules. */
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .check(singleLine);

export const firstNameSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(100, 'must be at most 100 characters')
  .check(singleLine);

export const lastNameSchema = z
  .string()
  .trim()
  .max(100, 'must be at most 100 characters')
  .check(singleLine)
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));

export const registerSchema = z.strictObject({
  email: emailSchema,
  password: newPasswordSchema,
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  /** The solved registration challenge (base64 ALTCHA payload), when the server asks for one. */
  challengeSolution: z.string().max(2000, 'must be at most 2000 characters').check(singleLine).optional(),
});
export type Register = z.infer<typeof registerSchema>;

export const loginSchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, 'is required').max(254).check(singleLine),
  password: z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH).check(singleLine),
});
export type Login = z.infer<typeof loginSchema>;

/** GET /api/auth/user */
/** The onboarding tours (docs/product-rules.md, Screens). */
export const TOUR_IDS = ['first-time', 'generator'] as const;
export type TourId = (typeof TOUR_IDS)[number];
export const isTourId = (value: string): value is TourId => (TOUR_IDS as readonly string[]).includes(value);
export const tourParamsSchema = z.object({ tour: z.enum(TOUR_IDS) });
export const completedToursSchema = z.object({ completedTours: z.array(z.enum(TOUR_IDS)) });

export const authUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** When the email was proven (a mailed link, a password reset, a provider that verified it); null until then. */
  emailVerifiedAt: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  displayName: z.string(),
  isAdmin: z.boolean(),
  plan: planSchema,
  subscriptionStatus: subscriptionStatusSchema,
  createdAt: z.string(),
  /** The tours this person finished or skipped, on any device: they do not start again by themselves. */
  completedTours: z.array(z.enum(TOUR_IDS)).default([]),
});
export type AuthUser = z.infer<typeof authUserSchema>;

/** GET /api/user/status: credits are shown as numbers (0.5, 1, 3). */
export const userStatusSchema = z.object({
  availableCredits: z.number(),
  isUnlimited: z.boolean(),
  /** The spec's plan code (always JUST_FOR_FUN: the product has one plan). */
  plan: planSchema,
  /** What the screens call how this user pays: 'Credits', 'Daily Subscription', 'Daily Subscription (trial)' or 'Unlimited'. */
  planName: z.string().meta({ examples: ['Credits'] }),
});
export type UserStatus = z.infer<typeof userStatusSchema>;

export const messageSchema = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof messageSchema>;

/** The display name: first and last name, else the part of the email before the @. */
export function toDisplayName(user: { firstName: string | null; lastName: string | null; email: string }): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || (user.email.split('@')[0] ?? user.email);
}

/** How a user pays, as the screens name it (the balance's planName). */
export function planNameOf(status: SubscriptionStatus): string {
  switch (status) {
    case 'premium_unlimited':
      return 'Unlimited';
    case 'active':
      return 'Daily Subscription';
    case 'trial':
      return 'Daily Subscription (trial)';
    case 'inactive':
      return 'Credits';
  }
}

/** Unlimited generation is the premium_unlimited subscription status. */
export function isUnlimitedStatus(status: string): boolean {
  return status === 'premium_unlimited';
}

/** Subscribers get the daily generations (a trial counts as subscribed). */
export function isSubscribed(status: string): boolean {
  return status === 'active' || status === 'trial';
}

/** Who is offered the daily subscription: neither a subscriber already nor unlimited. */
export function canStartSubscription(status: string): boolean {
  return !isSubscribed(status) && !isUnlimitedStatus(status);
}
