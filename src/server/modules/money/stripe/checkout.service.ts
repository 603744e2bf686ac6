import type Stripe from 'stripe';
import { EXTRA_PACKS, type ExtraPackName, type GenerationStatus } from '../../../shared/money/plans';
import { CREDIT_PRICE_CENTS } from '../../../shared/money/payments';
import type { Db, Executor } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { generationStatus } from '../billing/allowances.service';
import { findUserById } from '../users/users.service';
import {
  assertPayer,
  type Fulfilment,
  fulfil,
  fulfilPayment,
  type PaymentMetadata,
  refundPayment,
  verifyCheckoutSession,
  verifyPaymentIntent,
} from './fulfilment';
import { callStripe, idOf, type StripeClient } from './stripe-gateway';
import { applySubscription, dailyPrices, startSubscription, syncSubscription } from './subscriptions';
import * as repo from './payments.repository';

export interface PaymentsDeps {
  db: Db;
  stripe: StripeClient;
  publicUrl: string;
  webhookSecret: string | undefined;
  now: () => Date;
}

export interface WebhookOutcome {
  /** False when the event id had been handled before. */
  handled: boolean;
  /** Why a payment event was not fulfilled. */
  ignored?: string;
}

export type Payments = ReturnType<typeof createPayments>;

/** Every payment operation of the API, bound to one Stripe client. */
export function createPayments(deps: PaymentsDeps) {
  const { db, stripe, now } = deps;
  const prices = dailyPrices(stripe);

  async function createIntent(user: UserRow, amountCents: number, metadata: PaymentMetadata, description: string) {
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

  const retrieveIntent = (id: string) => callStripe('The payment', () => stripe.paymentIntents.retrieve(id));

  function secretOf(intent: Stripe.PaymentIntent): string {
    if (!intent.client_secret) throw new AppError(502, 'payment_provider_error', 'The payment provider did not return a payment form.');
    return intent.client_secret;
  }

  /** The PaymentIntent behind a refund when this server has not fulfilled it yet; null otherwise or when Stripe has none. */
  async function unfulfilledIntent(paymentId: string | null): Promise<Stripe.PaymentIntent | null> {
    if (!paymentId || (await repo.findPayment(db, paymentId))) return null;
    try {
      return await retrieveIntent(paymentId);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return null;
      throw error;
    }
  }

  /**
   * Fulfils a payment a webhook (or a refund's lookup) showed, when it is one of ours. Answers why it
   * was not fulfilled: a payment that does not match what it bought is handled, never credited.
   */
  async function fulfilFromStripe(tx: Executor, object: Stripe.PaymentIntent | Stripe.Checkout.Session, at: Date): Promise<string | null> {
    if (!object.metadata?.kind || !(await findUserById(tx, object.metadata.userId ?? ''))) return null;
    if (object.object === 'checkout.session' && object.payment_status !== 'paid') return null;
    try {
      await fulfilPayment(tx, object.object === 'checkout.session' ? verifyCheckoutSession(object) : verifyPaymentIntent(object), 'webhook', at);
      return null;
    } catch (error) {
      if (error instanceof AppError) return error.message;
      throw error;
    }
  }

  return {
    /** POST /api/credits/checkout: a hosted Checkout Session for `credits` credits at $1 each. */
    async createCheckout(user: UserRow, credits: number): Promise<string> {
      const metadata: PaymentMetadata = { userId: user.id, kind: 'credits', credits: String(credits) };
      const session = await callStripe('The checkout', () =>
        stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [{ quantity: credits, price_data: { currency: 'usd', unit_amount: CREDIT_PRICE_CENTS, product_data: { name: 'Reelsmith credit' } } }],
          success_url: `${deps.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${deps.publicUrl}/credits`,
          client_reference_id: user.id,
          customer_email: user.stripeCustomerId ? undefined : user.email,
          ...(user.stripeCustomerId ? { customer: user.stripeCustomerId } : {}),
          metadata,
          // The same metadata on the PaymentIntent, so its own event is recognised as this purchase.
          payment_intent_data: { metadata },
        }),
      );
      if (!session.url) throw new AppError(502, 'payment_provider_error', 'The payment provider did not return a checkout page.');
      return session.url;
    },

    /** POST /api/credits/checkout-success */
    async confirmCheckout(user: UserRow, sessionId: string): Promise<Fulfilment> {
      const session = await callStripe('The payment session', () => stripe.checkout.sessions.retrieve(sessionId));
      const payment = assertPayer(verifyCheckoutSession(session), user.id);
      return fulfil(db, payment, 'checkout', now());
    },

    /** POST /api/credits/payment-intent: the embedded card form's payment, priced here. */
    async createCreditsIntent(user: UserRow, credits: number) {
      const amountCents = credits * CREDIT_PRICE_CENTS;
      const intent = await createIntent(user, amountCents, { userId: user.id, kind: 'credits', credits: String(credits) }, `${credits} Reelsmith credits`);
      return { clientSecret: secretOf(intent), paymentIntentId: intent.id, credits, amountCents };
    },

    /** POST /api/credits/fulfill: credits only a succeeded payment of this user, for exactly what it paid. */
    async fulfilCredits(user: UserRow, paymentIntentId: string, credits: number): Promise<Fulfilment> {
      const intent = await retrieveIntent(paymentIntentId);
      const payment = assertPayer(verifyPaymentIntent(intent), user.id);
      if (payment.kind !== 'credits' || payment.credits !== credits) {
        throw new AppError(422, 'amount_mismatch', 'The amount paid does not match the credits requested.');
      }
      return fulfil(db, payment, 'fulfill', now());
    },

    /** POST /api/payments/extra-generations */
    async createPackIntent(user: UserRow, pack: ExtraPackName): Promise<string> {
      const { generations, priceCents } = EXTRA_PACKS[pack];
      const intent = await createIntent(user, priceCents, { userId: user.id, kind: 'extra_pack', pack }, `${generations} extra Reelsmith generations`);
      return secretOf(intent);
    },

    /** POST /api/payments/start-subscription */
    startSubscription: (user: UserRow) => startSubscription(db, stripe, prices, user, now()),

    /** POST /api/payments/confirm: applies a pack payment and the subscription's state, then answers the status. */
    async confirm(user: UserRow, paymentIntentId: string | undefined): Promise<GenerationStatus> {
      if (paymentIntentId) {
        const intent = await retrieveIntent(paymentIntentId);
        // A subscription's invoice payment carries no metadata of ours: the subscription sync covers it.
        if (intent.metadata?.kind === 'extra_pack' || intent.metadata?.kind === 'credits') {
          await fulfil(db, assertPayer(verifyPaymentIntent(intent), user.id), 'confirm', now());
        }
      }
      await syncSubscription(db, stripe, user);
      const current = (await findUserById(db, user.id)) ?? user;
      return generationStatus(db, current, now());
    },

    /** Verifies a webhook's signature over its raw body; a bad one is a 400. */
    constructEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event {
      if (!deps.webhookSecret) throw new AppError(503, 'webhook_not_configured', 'The webhook signing secret is not configured.');
      if (!signature) throw new AppError(400, 'bad_signature', 'Missing Stripe-Signature header.');
      try {
        return stripe.webhooks.constructEvent(rawBody, signature, deps.webhookSecret);
      } catch {
        throw new AppError(400, 'bad_signature', 'The webhook signature is not valid.');
      }
    },

    /**
     * Handles one verified event, once per event id: payments fulfil, refunds and lost disputes take
     * back what they bought, subscriptions and invoices keep the status true.
     */
    async handleEvent(event: Stripe.Event): Promise<WebhookOutcome> {
      // Stripe is asked before the transaction, so no row stays locked during a network call.
      const invoiceSubscription =
        (event.type === 'invoice.paid' || event.type === 'invoice.payment_succeeded') && event.data.object.parent?.subscription_details?.subscription
          ? await callStripe('The subscription', () => stripe.subscriptions.retrieve(idOf(event.data.object.parent?.subscription_details?.subscription) ?? ''))
          : null;
      // A refund can reach us before any report of its payment did: the payment is then asked for
      // here and fulfilled first, so a later report cannot credit what was refunded.
      const refundedIntent = event.type === 'charge.refunded' ? await unfulfilledIntent(idOf(event.data.object.payment_intent)) : null;
      return db.transaction(async (tx): Promise<WebhookOutcome> => {
        if (!(await repo.claimEvent(tx, { id: event.id, type: event.type }))) return { handled: false };
        const at = now();
        switch (event.type) {
          case 'payment_intent.succeeded':
          case 'checkout.session.completed':
          case 'checkout.session.async_payment_succeeded':
            return outcome(await fulfilFromStripe(tx, event.data.object, at));
          case 'charge.refunded': {
            // Cumulative: a second partial refund carries the total refunded so far.
            const charge = event.data.object;
            const paymentId = idOf(charge.payment_intent);
            if (!paymentId) break;
            if (refundedIntent?.id === paymentId) await fulfilFromStripe(tx, refundedIntent, at);
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
            const subscription = event.data.object;
            const user = await userForSubscription(tx, subscription.metadata?.userId, idOf(subscription.customer));
            if (user) await applySubscription(tx, user, event.type === 'customer.subscription.deleted' ? { ...subscription, status: 'canceled' } : subscription);
            break;
          }
          case 'invoice.paid':
          case 'invoice.payment_succeeded': {
            const user = await userForSubscription(tx, invoiceSubscription?.metadata?.userId, idOf(event.data.object.customer));
            if (user && invoiceSubscription) await applySubscription(tx, user, invoiceSubscription);
            break;
          }
          default:
            break;
        }
        return { handled: true };
      });
    },
  };
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
