import { EXTRA_PACKS, type ExtraPackName } from '../../../shared/money/plans';
import { type Receipt, receiptStatus } from '../../../shared/money/billing-account';
import type { ServiceContext } from '../../context';
import type { PaymentRow, UserRow } from '../../db/schema';
import * as repo from './payments.repository';

/** The receipts list shows this many payments, newest first. */
export const RECEIPTS_LIMIT = 100;
/** Receipt links looked up at Stripe per listing (each once: they are stored), each with its own short limit. */
const RECEIPT_LOOKUPS = 10;
const RECEIPT_LOOKUP_TIMEOUT_MS = 5_000;
/** The subscription's latest paid invoices listed (a month of daily charges). */
const SUBSCRIPTION_RECEIPTS = 31;

function describePayment(row: PaymentRow): string {
  if (row.kind === 'credits') return `${row.credits ?? 0} ${row.credits === 1 ? 'credit' : 'credits'}`;
  const pack = row.pack && Object.hasOwn(EXTRA_PACKS, row.pack) ? EXTRA_PACKS[row.pack as ExtraPackName] : null;
  const name = row.pack ? row.pack.charAt(0).toUpperCase() + row.pack.slice(1) : 'Extra';
  return pack ? `${name} pack: ${pack.generations} extra generations` : `${name} pack`;
}

/** Stripe's receipt link of a payment's charge, or null (no charge yet, Stripe slow or unreachable). */
async function lookUpReceiptUrl(ctx: ServiceContext, paymentId: string): Promise<string | null> {
  if (!ctx.stripe || !paymentId.startsWith('pi_')) return null;
  try {
    const intent = await ctx.stripe.paymentIntents.retrieve(
      paymentId,
      { expand: ['latest_charge'] },
      { timeout: RECEIPT_LOOKUP_TIMEOUT_MS, maxNetworkRetries: 0 },
    );
    const charge = intent.latest_charge;
    return charge && typeof charge === 'object' ? (charge.receipt_url ?? null) : null;
  } catch {
    return null;
  }
}

/** Paid invoices of the user's daily subscription, newest first; empty when Stripe cannot be asked now. */
async function subscriptionReceipts(ctx: ServiceContext, user: UserRow): Promise<Receipt[]> {
  if (!ctx.stripe || !user.stripeCustomerId) return [];
  try {
    const invoices = await ctx.stripe.invoices.list(
      { customer: user.stripeCustomerId, status: 'paid', limit: SUBSCRIPTION_RECEIPTS },
      { timeout: RECEIPT_LOOKUP_TIMEOUT_MS, maxNetworkRetries: 0 },
    );
    return invoices.data
      .filter((invoice) => invoice.amount_paid > 0)
      .map((invoice) => ({
        id: invoice.id ?? `invoice-${invoice.created}`,
        createdAt: new Date(invoice.created * 1000).toISOString(),
        kind: 'subscription' as const,
        description: 'Daily subscription',
        amountCents: invoice.amount_paid,
        refundedCents: 0,
        currency: invoice.currency,
        status: 'paid' as const,
        receiptUrl: invoice.hosted_invoice_url ?? null,
      }));
  } catch {
    return [];
  }
}

/**
 * GET /api/payments/receipts: the user's payments, newest first: credits and extra packs from the
 * payments table (with what each bought, its amount, what Stripe refunded and Stripe's receipt
 * link; links not known yet are asked for, a few per listing, in parallel, each time-limited, and
 * stored), and the daily subscription's paid invoices, asked of Stripe with a short limit.
 */
export async function listReceipts(ctx: ServiceContext, user: UserRow): Promise<Receipt[]> {
  const [rows, invoices] = await Promise.all([
    repo.listUserPayments(ctx.db, user.id, RECEIPTS_LIMIT),
    subscriptionReceipts(ctx, user),
  ]);
  const missing = rows.filter((row) => !row.receiptUrl).slice(0, RECEIPT_LOOKUPS);
  const found = await Promise.all(missing.map(async (row) => [row.id, await lookUpReceiptUrl(ctx, row.id)] as const));
  const links = new Map<string, string>();
  for (const [id, url] of found) {
    if (!url) continue;
    links.set(id, url);
    await repo.setReceiptUrl(ctx.db, id, url);
  }
  const payments: Receipt[] = rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    kind: row.kind,
    description: describePayment(row),
    amountCents: row.amountCents,
    refundedCents: row.refundedCents,
    currency: row.currency,
    status: receiptStatus(row.amountCents, row.refundedCents),
    receiptUrl: row.receiptUrl ?? links.get(row.id) ?? null,
  }));
  return [...payments, ...invoices].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
