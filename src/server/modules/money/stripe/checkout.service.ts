import type Stripe from 'stripe';
import { EXTRA_PACKS, type ExtraPackName, type GenerationStatus } from '../../../../shared/money/plans';
import { CREDIT_PRICE_CENTS, type CreditsPaymentIntent } from '../../../../shared/money/payments';
import { formatCount } from '../../../../shared/money/price-list';
import type { ServiceContext } from '../../../context';
import type { UserRow } from '../../../db/schema';
import { AppError } from '../../../lib/app-error';
import { callStripe, requireStripe, type StripeClient } from '../../../stripe/stripe-client';
import { findUserById } from '../payments.repository';
import { generationStatus } from '../allowances.service';
import {
  assertPayer,
  type Fulfilment,
  fulfilPayment,
  type PaymentMetadata,
  verifyCheckoutSession,
  verifyPaymentIntent,
} from './fulfilment.service';
import { syncSubscription } from './subscriptions.service';

function createIntent(
  stripe: StripeClient,
  user: UserRow,
  amountCents: number,
  metadata: PaymentMetadata,
  description: string,
) {
  return callStripe('The payment', () =>
    stripe.paymentIntents.create({
      amount: amountCents,
      currency: 'usd',
      description,
      metadata,
      receipt_email: user.email,
      ...(user.stripeCustomerId ? { customer: user.stripeCustomerId } : {}),
      automatic_payment_methods: { enabled: true },
    }),
  );
}

/** A PaymentIntent as Stripe holds it now (404 when Stripe has none with this id). */
export function retrievePaymentIntent(stripe: StripeClient, id: string): Promise<Stripe.PaymentIntent> {
  return callStripe('The payment', () => stripe.paymentIntents.retrieve(id));
}

function clientSecretOf(intent: Stripe.PaymentIntent): string {
  if (!intent.client_secret)
    throw new AppError(502, 'payment_provider_error', 'The payment provider did not return a payment form.');
  return intent.client_secret;
}

/** POST /api/credits/checkout: a hosted Checkout Session for `credits` credits at $1 each. */
export async function createCreditsCheckout(ctx: ServiceContext, user: UserRow, credits: number): Promise<string> {
  const stripe = requireStripe(ctx);
  const metadata: PaymentMetadata = { userId: user.id, kind: 'credits', credits: String(credits) };
  const session = await callStripe('The checkout', () =>
    stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          quantity: credits,
          price_data: { currency: 'usd', unit_amount: CREDIT_PRICE_CENTS, product_data: { name: 'Reelsmith credit' } },
        },
      ],
      success_url: `${ctx.config.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${ctx.config.publicUrl}/credits`,
      client_reference_id: user.id,
      customer_email: user.stripeCustomerId ? undefined : user.email,
      ...(user.stripeCustomerId ? { customer: user.stripeCustomerId } : {}),
      metadata,
      // The same metadata on the PaymentIntent, so its own event is recognised as this purchase.
      payment_intent_data: { metadata },
    }),
  );
  if (!session.url)
    throw new AppError(502, 'payment_provider_error', 'The payment provider did not return a checkout page.');
  return session.url;
}

/** POST /api/credits/checkout-success: fulfils the buyer's paid Checkout Session (once). */
export async function confirmCreditsCheckout(
  ctx: ServiceContext,
  user: UserRow,
  sessionId: string,
): Promise<Fulfilment> {
  const stripe = requireStripe(ctx);
  const session = await callStripe('The payment session', () => stripe.checkout.sessions.retrieve(sessionId));
  const payment = assertPayer(verifyCheckoutSession(session), user.id);
  return ctx.db.transaction((tx) => fulfilPayment(tx, payment, 'checkout', ctx.now()));
}

/** POST /api/credits/payment-intent: the embedded card form's payment, priced here. */
export async function createCreditsPaymentIntent(
  ctx: ServiceContext,
  user: UserRow,
  credits: number,
): Promise<CreditsPaymentIntent> {
  const amountCents = credits * CREDIT_PRICE_CENTS;
  const metadata: PaymentMetadata = { userId: user.id, kind: 'credits', credits: String(credits) };
  const intent = await createIntent(
    requireStripe(ctx),
    user,
    amountCents,
    metadata,
    `${formatCount(credits)} Reelsmith ${credits === 1 ? 'credit' : 'credits'}`,
  );
  return { clientSecret: clientSecretOf(intent), paymentIntentId: intent.id, credits, amountCents };
}

/** POST /api/credits/fulfill: credits only a succeeded payment of this user, for exactly what it paid. */
export async function fulfilCreditsPayment(
  ctx: ServiceContext,
  user: UserRow,
  paymentIntentId: string,
  credits: number,
): Promise<Fulfilment> {
  const intent = await retrievePaymentIntent(requireStripe(ctx), paymentIntentId);
  const payment = assertPayer(verifyPaymentIntent(intent), user.id);
  if (payment.kind !== 'credits' || payment.credits !== credits) {
    throw new AppError(422, 'amount_mismatch', 'The amount paid does not match the credits requested.');
  }
  return ctx.db.transaction((tx) => fulfilPayment(tx, payment, 'fulfill', ctx.now()));
}

/** POST /api/payments/extra-generations: the card form's payment for an extra pack. */
export async function createPackPaymentIntent(
  ctx: ServiceContext,
  user: UserRow,
  pack: ExtraPackName,
): Promise<string> {
  const { generations, priceCents } = EXTRA_PACKS[pack];
  const metadata: PaymentMetadata = { userId: user.id, kind: 'extra_pack', pack };
  const intent = await createIntent(
    requireStripe(ctx),
    user,
    priceCents,
    metadata,
    `${generations} extra Reelsmith generations`,
  );
  return clientSecretOf(intent);
}

/** POST /api/payments/confirm: applies a pack payment and the subscription's state, then answers the status. */
export async function confirmPayment(
  ctx: ServiceContext,
  user: UserRow,
  paymentIntentId: string | undefined,
): Promise<GenerationStatus> {
  const stripe = requireStripe(ctx);
  if (paymentIntentId) {
    const intent = await retrievePaymentIntent(stripe, paymentIntentId);
    // A subscription's invoice payment carries no metadata of ours: the subscription sync covers it.
    if (intent.metadata?.kind === 'extra_pack' || intent.metadata?.kind === 'credits') {
      const payment = assertPayer(verifyPaymentIntent(intent), user.id);
      await ctx.db.transaction((tx) => fulfilPayment(tx, payment, 'confirm', ctx.now()));
    }
  }
  await syncSubscription(ctx, user);
  const current = (await findUserById(ctx.db, user.id)) ?? user;
  return generationStatus(ctx, current);
}
