import type Stripe from 'stripe';
import { canStartSubscription, isUnlimitedStatus, type SubscriptionStatus } from '../../../../shared/auth';
import {
  SUBSCRIPTION_INTRO_DAYS,
  SUBSCRIPTION_INTRO_PRICE_CENTS,
  SUBSCRIPTION_PRICE_CENTS,
} from '../../../../shared/money/plans';
import type { ServiceContext } from '../../../context';
import type { Executor } from '../../../db/client';
import type { UserRow } from '../../../db/schema';
import { AppError, conflict } from '../../../lib/app-error';
import { findUserById } from '../payments.repository';
import { callStripe, idOf, requireStripe, type StripeClient } from '../../../stripe/stripe-client';
import { publishBalanceChange } from '../../../bus/publish';
import * as repo from '../payments.repository';

/** The two daily prices, found by lookup key so every server of an installation shares them. */
export const PRICE_LOOKUP_KEYS = { intro: 'reelsmith_daily_first_week', regular: 'reelsmith_daily' } as const;

interface DailyPrices {
  intro: string;
  regular: string;
}

const pricesByClient = new WeakMap<StripeClient, Promise<DailyPrices>>();

/** Finds (or once creates) the $1/day and $2/day prices; cached per Stripe client, forgotten on failure. */
export function dailyPrices(stripe: StripeClient): Promise<DailyPrices> {
  let prices = pricesByClient.get(stripe);
  if (!prices) {
    prices = findOrCreatePrices(stripe).catch((error: unknown) => {
      pricesByClient.delete(stripe);
      throw error;
    });
    pricesByClient.set(stripe, prices);
  }
  return prices;
}

async function findOrCreatePrices(stripe: StripeClient): Promise<DailyPrices> {
  const found = await callStripe('The subscription price', () =>
    stripe.prices.list({ lookup_keys: [PRICE_LOOKUP_KEYS.intro, PRICE_LOOKUP_KEYS.regular], active: true, limit: 10 }),
  );
  const byKey = new Map(found.data.map((price) => [price.lookup_key, price]));
  const create = (key: string, cents: number, nickname: string, product: string | null) =>
    callStripe('The subscription price', () =>
      stripe.prices.create({
        currency: 'usd',
        unit_amount: cents,
        recurring: { interval: 'day' },
        lookup_key: key,
        nickname,
        ...(product ? { product } : { product_data: { name: 'Reelsmith daily subscription' } }),
      }),
    );
  const intro =
    byKey.get(PRICE_LOOKUP_KEYS.intro) ??
    (await create(PRICE_LOOKUP_KEYS.intro, SUBSCRIPTION_INTRO_PRICE_CENTS, 'Daily subscription, first week', null));
  // The second price joins the first one's product: one product, two prices.
  const regular =
    byKey.get(PRICE_LOOKUP_KEYS.regular) ??
    (await create(PRICE_LOOKUP_KEYS.regular, SUBSCRIPTION_PRICE_CENTS, 'Daily subscription', idOf(intro.product)));
  return { intro: intro.id, regular: regular.id };
}

/** Our status for a Stripe subscription status; null leaves the user's status as it is. */
export function statusFromStripe(status: Stripe.Subscription.Status): SubscriptionStatus | null {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'incomplete') return null;
  return 'inactive';
}

/** Applies a subscription's state to its user; an administrator's unlimited status is never changed by Stripe. */
export async function applySubscription(tx: Executor, user: UserRow, subscription: Stripe.Subscription): Promise<void> {
  const status = statusFromStripe(subscription.status);
  // Events of another subscription (an older, cancelled or replaced one) never change the current one.
  if (user.stripeSubscriptionId && user.stripeSubscriptionId !== subscription.id) return;
  await repo.updateUserStripe(tx, user.id, {
    stripeSubscriptionId: subscription.id,
    ...(status && !isUnlimitedStatus(user.subscriptionStatus) ? { subscriptionStatus: status } : {}),
  });
  await publishBalanceChange(tx, user.id);
}

async function ensureCustomer(ctx: ServiceContext, stripe: StripeClient, user: UserRow): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const customer = await callStripe('The customer', () =>
    stripe.customers.create(
      {
        email: user.email,
        name: [user.firstName, user.lastName].filter(Boolean).join(' ') || undefined,
        metadata: { userId: user.id },
      },
      { idempotencyKey: `customer-${user.id}` },
    ),
  );
  await repo.updateUserStripe(ctx.db, user.id, { stripeCustomerId: customer.id });
  return customer.id;
}

function clientSecretOf(subscription: Stripe.Subscription): string | null {
  const invoice = subscription.latest_invoice;
  if (!invoice || typeof invoice === 'string') return null;
  return invoice.confirmation_secret?.client_secret ?? null;
}

/**
 * POST /api/payments/start-subscription: a $1/day subscription whose schedule moves it to $2/day
 * after 7 days. Answers the first invoice's client secret for the card form. An unpaid subscription
 * started earlier is offered again rather than a second one created.
 */
export async function startSubscription(ctx: ServiceContext, user: UserRow): Promise<string> {
  const stripe = requireStripe(ctx);
  if (!canStartSubscription(user.subscriptionStatus)) {
    throw conflict('You already have an active subscription.', 'already_subscribed');
  }
  const expand = ['latest_invoice.confirmation_secret'];
  if (user.stripeSubscriptionId) {
    const previous = await callStripe('The subscription', () =>
      stripe.subscriptions.retrieve(user.stripeSubscriptionId ?? '', { expand }),
    );
    const secret = clientSecretOf(previous);
    if (previous.status === 'incomplete' && secret) return secret;
  }
  const customer = await ensureCustomer(ctx, stripe, user);
  const { intro, regular } = await dailyPrices(stripe);
  const subscription = await callStripe('The subscription', () =>
    stripe.subscriptions.create({
      customer,
      items: [{ price: intro }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      metadata: { userId: user.id },
      expand,
    }),
  );
  const secret = clientSecretOf(subscription);
  if (!secret)
    throw new AppError(
      502,
      'payment_provider_error',
      'The payment provider did not return a payment form for the subscription.',
    );
  // The first week at $1/day, then $2/day from the same subscription, through a schedule.
  const schedule = await callStripe('The subscription schedule', () =>
    stripe.subscriptionSchedules.create({ from_subscription: subscription.id }),
  );
  const start = schedule.phases[0]?.start_date ?? Math.floor(ctx.now().getTime() / 1000);
  await callStripe('The subscription schedule', () =>
    stripe.subscriptionSchedules.update(schedule.id, {
      end_behavior: 'release',
      phases: [
        {
          items: [{ price: intro, quantity: 1 }],
          start_date: start,
          duration: { interval: 'day', interval_count: SUBSCRIPTION_INTRO_DAYS },
        },
        { items: [{ price: regular, quantity: 1 }], duration: { interval: 'day', interval_count: 1 } },
      ],
    }),
  );
  await repo.updateUserStripe(ctx.db, user.id, { stripeSubscriptionId: subscription.id });
  return secret;
}

/** Looks the user's subscription up at Stripe and applies its state (the browser's confirmation). */
export async function syncSubscription(ctx: ServiceContext, user: UserRow): Promise<void> {
  const stripe = requireStripe(ctx);
  if (!user.stripeSubscriptionId) return;
  const subscription = await callStripe('The subscription', () =>
    stripe.subscriptions.retrieve(user.stripeSubscriptionId ?? ''),
  );
  await ctx.db.transaction(async (tx) => {
    const current = await findUserById(tx, user.id);
    if (current) await applySubscription(tx, current, subscription);
  });
}
