import type Stripe from 'stripe';
import { EXTRA_PACKS, type ExtraPackName } from '../../../../shared/money/plans';
import { CREDIT_PRICE_CENTS } from '../../../../shared/money/payments';
import { formatCreditCount, toHundredths } from '../../../../shared/money/credits';
import type { Executor } from '../../../db/client';
import type { PaymentSource } from '../../../db/schema';
import { AppError, forbidden } from '../../../lib/app-error';
import { grantPack } from '../allowances.service';
import { applyCreditChange } from '../ledger.service';
import { idOf } from '../../../stripe/stripe-client';
import * as repo from '../payments.repository';

/** What our own PaymentIntents and Checkout Sessions carry in their metadata. */
export type PaymentMetadata =
  { userId: string; kind: 'credits'; credits: string } | { userId: string; kind: 'extra_pack'; pack: ExtraPackName };

/** A payment Stripe says succeeded, checked against what it bought; the only thing fulfilment accepts. */
export type VerifiedPayment = Purchase & {
  /** The PaymentIntent id: one payment, however it is reported. */
  paymentId: string;
  checkoutSessionId?: string;
};

/** What a payment bought, and who for. */
type Purchase = { userId: string; amountCents: number; currency: string } & (
  { kind: 'credits'; credits: number } | { kind: 'extra_pack'; pack: ExtraPackName }
);

export interface Fulfilment {
  /** Credits the payment bought (0 for a pack). */
  creditsAdded: number;
  /** True when an earlier report had already fulfilled it. */
  alreadyCredited: boolean;
}

const notCompleted = (status: string | null) =>
  new AppError(409, 'payment_not_completed', `The payment has not completed (status: ${status ?? 'unknown'}).`);
const mismatch = () => new AppError(422, 'amount_mismatch', 'The amount paid does not match what was bought.');
const notOurs = () => new AppError(422, 'unknown_payment', 'This payment was not made through Reelsmith.');

/** Reads what a payment bought from its metadata, checking the amount Stripe charged against our prices. */
function verifyPurchase(
  metadata: Stripe.Metadata | null,
  amountCents: number | null,
  currency: string | null,
): Purchase {
  const userId = metadata?.userId;
  if (!userId) throw notOurs();
  if (currency !== 'usd' || amountCents === null) throw mismatch();
  if (metadata.kind === 'credits') {
    const credits = Number(metadata.credits);
    if (!Number.isSafeInteger(credits) || credits < 1 || credits * CREDIT_PRICE_CENTS !== amountCents) throw mismatch();
    return { userId, kind: 'credits', credits, amountCents, currency };
  }
  if (metadata.kind === 'extra_pack' && metadata.pack && Object.hasOwn(EXTRA_PACKS, metadata.pack)) {
    const pack = metadata.pack as ExtraPackName;
    if (EXTRA_PACKS[pack].priceCents !== amountCents) throw mismatch();
    return { userId, kind: 'extra_pack', pack, amountCents, currency };
  }
  throw notOurs();
}

/** A succeeded PaymentIntent created by this server. */
export function verifyPaymentIntent(intent: Stripe.PaymentIntent): VerifiedPayment {
  const purchase = verifyPurchase(intent.metadata, intent.amount, intent.currency);
  if (intent.status !== 'succeeded') throw notCompleted(intent.status);
  return { ...purchase, paymentId: intent.id };
}

/** A paid Checkout Session created by this server. */
export function verifyCheckoutSession(session: Stripe.Checkout.Session): VerifiedPayment {
  const purchase = verifyPurchase(session.metadata, session.amount_total, session.currency);
  if (session.payment_status !== 'paid') throw notCompleted(session.payment_status);
  return { ...purchase, paymentId: idOf(session.payment_intent) ?? session.id, checkoutSessionId: session.id };
}

/** Refuses a payment that another account made. */
export function assertPayer(payment: VerifiedPayment, userId: string): VerifiedPayment {
  if (payment.userId !== userId) throw forbidden('This payment belongs to another account.', 'payment_not_yours');
  return payment;
}

/**
 * The one fulfilment, in the caller's transaction: records the payment (its id is the primary key)
 * and, only when this call recorded it, credits the account or grants the pack. The fulfil call,
 * the checkout-success call, the /subscribe confirmation and the webhook all end here.
 */
export async function fulfilPayment(
  tx: Executor,
  payment: VerifiedPayment,
  source: PaymentSource,
  now: Date,
): Promise<Fulfilment> {
  const recorded = await repo.insertPayment(tx, {
    id: payment.paymentId,
    userId: payment.userId,
    kind: payment.kind,
    credits: payment.kind === 'credits' ? payment.credits : null,
    pack: payment.kind === 'extra_pack' ? payment.pack : null,
    amountCents: payment.amountCents,
    currency: payment.currency,
    checkoutSessionId: payment.checkoutSessionId ?? null,
    source,
  });
  if (!recorded) {
    const earlier = await repo.findPayment(tx, payment.paymentId);
    if (earlier && earlier.userId !== payment.userId)
      throw forbidden('This payment belongs to another account.', 'payment_not_yours');
    return { creditsAdded: earlier?.credits ?? 0, alreadyCredited: true };
  }
  if (payment.kind === 'credits') {
    await applyCreditChange(tx, {
      userId: payment.userId,
      deltaHundredths: toHundredths(payment.credits),
      kind: 'purchase',
      actor: 'stripe',
      reason: `${formatCreditCount(payment.credits)} bought (${source})`,
      reference: payment.paymentId,
    });
    return { creditsAdded: payment.credits, alreadyCredited: false };
  }
  await grantPack(tx, {
    userId: payment.userId,
    pack: payment.pack,
    purchasedAt: now,
    paymentReference: payment.paymentId,
  });
  return { creditsAdded: 0, alreadyCredited: false };
}
