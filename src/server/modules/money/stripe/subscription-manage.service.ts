import type Stripe from 'stripe';
import type { SubscriptionDetails } from '../../../../shared/money/billing-account';
import {
  type GenerationStatus,
  SUBSCRIPTION_INTRO_PRICE_CENTS,
  SUBSCRIPTION_PRICE_CENTS,
} from '../../../../shared/money/plans';
import type { ServiceContext } from '../../../context';
import type { UserRow } from '../../../db/schema';
import { AppError, conflict } from '../../../lib/app-error';
import { callStripe, idOf, paymentsDisabled, requireStripe, type StripeClient } from '../../../stripe/stripe-client';
import { findUserById } from '../payments.repository';
import { generationStatus } from '../allowances.service';
import { applySubscription, dailyPrices } from './subscriptions.service';

/**
 * Managing a subscription after it started (decision 012): its next charge, cancelling it (at
 * once), Stripe's customer portal, and the cancellation an administrator's change triggers.
 */

/** Stripe statuses after which no invoice is ever made again. */
const ENDED = new Set<Stripe.Subscription.Status>(['canceled', 'incomplete_expired']);

const retrieve = (stripe: StripeClient, id: string) =>
  callStripe('The subscription', () => stripe.subscriptions.retrieve(id, { expand: ['schedule'] }));

/** Applies what Stripe says of the subscription to its user, in one short transaction. */
async function applyFresh(ctx: ServiceContext, userId: string, subscription: Stripe.Subscription): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const current = await findUserById(tx, userId);
    if (current) await applySubscription(tx, current, subscription);
  });
}

/** The price (id) that pays at `at` (seconds): the schedule's phase running then, else the subscription's own. */
function priceIdAt(subscription: Stripe.Subscription, at: number): string | null {
  const schedule = subscription.schedule && typeof subscription.schedule === 'object' ? subscription.schedule : null;
  if (schedule?.status === 'active') {
    const phase = schedule.phases.find((p) => p.start_date <= at && at < p.end_date);
    const price = idOf(phase?.items[0]?.price);
    if (price) return price;
  }
  return subscription.items.data[0]?.price.id ?? null;
}

/** What /subscribe shows of the subscription: the next charge's date and amount (cents by price id). */
export function describeSubscription(
  subscription: Stripe.Subscription,
  centsOf: (priceId: string) => number | null,
): NonNullable<SubscriptionDetails['subscription']> {
  const item = subscription.items.data[0];
  const charges =
    !subscription.cancel_at_period_end &&
    (subscription.status === 'active' || subscription.status === 'trialing' || subscription.status === 'past_due');
  const next = charges && item ? item.current_period_end : null;
  const priceId = next ? priceIdAt(subscription, next) : null;
  return {
    status: subscription.status,
    nextChargeAt: next ? new Date(next * 1000).toISOString() : null,
    nextChargeCents: priceId ? centsOf(priceId) : null,
  };
}

/** GET /api/payments/subscription: the user's subscription as Stripe has it now (applied to the user on the way). */
export async function subscriptionDetails(ctx: ServiceContext, user: UserRow): Promise<SubscriptionDetails> {
  if (!ctx.stripe) return { subscription: null, canManageBilling: false };
  const canManageBilling = Boolean(user.stripeCustomerId);
  if (!user.stripeSubscriptionId) return { subscription: null, canManageBilling };
  const subscription = await retrieve(ctx.stripe, user.stripeSubscriptionId);
  await applyFresh(ctx, user.id, subscription);
  if (subscription.status === 'incomplete' || subscription.status === 'incomplete_expired')
    return { subscription: null, canManageBilling };
  const daily = await dailyPrices(ctx.stripe);
  const centsOf = (priceId: string) =>
    priceId === daily.intro
      ? SUBSCRIPTION_INTRO_PRICE_CENTS
      : priceId === daily.regular
        ? SUBSCRIPTION_PRICE_CENTS
        : priceId === subscription.items.data[0]?.price.id
          ? (subscription.items.data[0]?.price.unit_amount ?? null)
          : null;
  return { subscription: describeSubscription(subscription, centsOf), canManageBilling };
}

/**
 * POST /api/payments/cancel-subscription: cancels the user's subscription at Stripe at once (no
 * further charge; Stripe cancels its schedule with it) and sets the user inactive. 409 when there
 * is nothing to cancel.
 */
export async function cancelSubscription(ctx: ServiceContext, user: UserRow): Promise<GenerationStatus> {
  const stripe = requireStripe(ctx);
  if (!user.stripeSubscriptionId) throw conflict('You have no subscription to cancel.', 'no_subscription');
  const current = await retrieve(stripe, user.stripeSubscriptionId);
  if (ENDED.has(current.status)) {
    await applyFresh(ctx, user.id, current);
    throw conflict('Your subscription has already ended.', 'no_subscription');
  }
  const cancelled = await callStripe('The subscription', () => stripe.subscriptions.cancel(current.id));
  await applyFresh(ctx, user.id, cancelled);
  return generationStatus(ctx, (await findUserById(ctx.db, user.id)) ?? user);
}

/** POST /api/payments/billing-portal: a Stripe customer portal session, back to /subscribe. */
export async function createBillingPortalSession(ctx: ServiceContext, user: UserRow): Promise<string> {
  const stripe = requireStripe(ctx);
  if (!user.stripeCustomerId)
    throw conflict('You have no billing account yet: it is made with your first subscription.', 'no_billing_account');
  const session = await callStripe('The billing portal', () =>
    stripe.billingPortal.sessions.create({
      customer: user.stripeCustomerId ?? '',
      return_url: `${ctx.config.publicUrl}/subscribe`,
    }),
  );
  if (!session.url)
    throw new AppError(502, 'payment_provider_error', 'The payment provider did not return a billing page.');
  return session.url;
}

/**
 * Cancels a user's Stripe subscription at once before an administrator deactivates or deletes
 * them; answers its id when one was cancelled, null when none was running. Without Stripe keys a
 * running subscription cannot be stopped: 503, and the caller changes nothing.
 */
export async function cancelSubscriptionForAdmin(ctx: ServiceContext, user: UserRow): Promise<string | null> {
  if (!user.stripeSubscriptionId) return null;
  if (!ctx.stripe) throw paymentsDisabled(ctx.config.operatorContact);
  const stripe = ctx.stripe;
  let current: Stripe.Subscription;
  try {
    current = await retrieve(stripe, user.stripeSubscriptionId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
  if (ENDED.has(current.status)) return null;
  const cancelled = await callStripe('The subscription', () => stripe.subscriptions.cancel(current.id));
  return idOf(cancelled.id);
}
