import type Stripe from 'stripe';
import type { ServiceContext } from '../../../context';
import type { Executor } from '../../../db/client';
import { AppError } from '../../../lib/app-error';
import { callStripe, idOf, requireStripe, type StripeClient } from '../../../stripe/stripe-client';
import { findUserById } from '../payments.repository';
import * as repo from '../payments.repository';
import { retrievePaymentIntent } from './checkout.service';
import { fulfilPayment, verifyCheckoutSession, verifyPaymentIntent } from './fulfilment.service';
import { refundPayment } from './refunds.service';
import { applySubscription } from './subscriptions.service';

export interface WebhookOutcome {
  /** False when the event id had been handled before. */
  handled: boolean;
  /** Why a payment event was not fulfilled. */
  ignored?: string;
}

/** Verifies a webhook's signature over its raw body; a bad one is a 400. */
export function verifyWebhookEvent(ctx: ServiceContext, rawBody: Buffer, signature: string | undefined): Stripe.Event {
  const stripe = requireStripe(ctx);
  const secret = ctx.config.stripe?.webhookSecret;
  if (!secret) throw new AppError(503, 'webhook_not_configured', 'The webhook signing secret is not configured.');
  if (!signature) throw new AppError(400, 'bad_signature', 'Missing Stripe-Signature header.');
  try {
    return stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    throw new AppError(400, 'bad_signature', 'The webhook signature is not valid.');
  }
}

/** The PaymentIntent behind a refund when this server has not fulfilled it yet; null otherwise or when Stripe has none. */
async function unfulfilledIntent(ctx: ServiceContext, paymentId: string | null): Promise<Stripe.PaymentIntent | null> {
  if (!paymentId || (await repo.findPayment(ctx.db, paymentId))) return null;
  try {
    return await retrievePaymentIntent(requireStripe(ctx), paymentId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Fulfils, in the caller's transaction, a payment a webhook (or a refund's lookup) reported, when
 * it is one of ours. Answers why it was not fulfilled: a payment that does not match what it
 * bought is handled, never credited.
 */
async function fulfilReportedPayment(
  tx: Executor,
  object: Stripe.PaymentIntent | Stripe.Checkout.Session,
  at: Date,
): Promise<string | null> {
  if (!object.metadata?.kind || !(await findUserById(tx, object.metadata.userId ?? ''))) return null;
  if (object.object === 'checkout.session' && object.payment_status !== 'paid') return null;
  try {
    await fulfilPayment(
      tx,
      object.object === 'checkout.session' ? verifyCheckoutSession(object) : verifyPaymentIntent(object),
      'webhook',
      at,
    );
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

/**
 * Handles one verified event, once per event id: payments fulfil, refunds and lost disputes take
 * back what they bought, subscriptions and invoices keep the status true.
 */
export async function handleWebhookEvent(ctx: ServiceContext, event: Stripe.Event): Promise<WebhookOutcome> {
  const stripe = requireStripe(ctx);
  // Stripe is asked before the transaction, so no row stays locked during a network call.
  const invoiceSubscription =
    (event.type === 'invoice.paid' || event.type === 'invoice.payment_succeeded') &&
    event.data.object.parent?.subscription_details?.subscription
      ? await callStripe('The subscription', () =>
          stripe.subscriptions.retrieve(idOf(event.data.object.parent?.subscription_details?.subscription) ?? ''),
        )
      : null;
  // A subscription event may arrive late or out of order: its object is a snapshot of then, so
  // Stripe is asked for the subscription as it is now (the event's object when Stripe has none).
  const currentSubscription =
    event.type === 'customer.subscription.created' ||
    event.type === 'customer.subscription.updated' ||
    event.type === 'customer.subscription.deleted'
      ? await subscriptionNow(stripe, event.data.object.id)
      : null;
  // A refund can reach us before any report of its payment did: the payment is then asked for
  // here and fulfilled first, so a later report cannot credit what was refunded.
  const refundedIntent =
    event.type === 'charge.refunded' ? await unfulfilledIntent(ctx, idOf(event.data.object.payment_intent)) : null;
  return ctx.db.transaction(async (tx): Promise<WebhookOutcome> => {
    if (!(await repo.claimEvent(tx, { id: event.id, type: event.type }))) return { handled: false };
    const at = ctx.now();
    switch (event.type) {
      case 'payment_intent.succeeded':
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return outcome(await fulfilReportedPayment(tx, event.data.object, at));
      case 'charge.refunded': {
        // Cumulative: a second partial refund carries the total refunded so far.
        const charge = event.data.object;
        const paymentId = idOf(charge.payment_intent);
        if (!paymentId) break;
        if (refundedIntent?.id === paymentId) await fulfilReportedPayment(tx, refundedIntent, at);
        return outcome(await refundPayment(tx, paymentId, { totalCents: charge.amount_refunded }));
      }
      case 'charge.dispute.closed': {
        // Each dispute closes once (and its event id is handled once); a won one changes nothing.
        const dispute = event.data.object;
        const paymentId = idOf(dispute.payment_intent);
        if (dispute.status !== 'lost' || !paymentId) break;
        return outcome(await refundPayment(tx, paymentId, { moreCents: dispute.amount }));
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const reported = event.data.object;
        const subscription =
          currentSubscription ??
          (event.type === 'customer.subscription.deleted' ? { ...reported, status: 'canceled' as const } : reported);
        const user = await userForSubscription(tx, subscription.metadata?.userId, idOf(subscription.customer));
        if (user) await applySubscription(tx, user, subscription);
        break;
      }
      case 'invoice.paid':
      case 'invoice.payment_succeeded': {
        const user = await userForSubscription(
          tx,
          invoiceSubscription?.metadata?.userId,
          idOf(event.data.object.customer),
        );
        if (user && invoiceSubscription) await applySubscription(tx, user, invoiceSubscription);
        break;
      }
      default:
        break;
    }
    return { handled: true };
  });
}

/** The subscription as Stripe has it now; null when Stripe has none with this id. */
async function subscriptionNow(stripe: StripeClient, id: string): Promise<Stripe.Subscription | null> {
  try {
    return await callStripe('The subscription', () => stripe.subscriptions.retrieve(id));
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/** A handled event, with why it changed nothing when it did not. */
const outcome = (ignored: string | null): WebhookOutcome => (ignored ? { handled: true, ignored } : { handled: true });

async function userForSubscription(tx: Executor, userId: string | undefined, customerId: string | null) {
  if (userId) {
    const user = await findUserById(tx, userId);
    if (user) return user;
  }
  return customerId ? repo.findUserByCustomer(tx, customerId) : null;
}
