import { ExternalLink, Receipt as ReceiptIcon } from 'lucide-react';

import { type Receipt, receiptStatusLabel } from '../../../../shared/money/billing-account';
import { formatUsd } from '../../../../shared/money/payments';
import { Badge } from '../../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useReceipts } from '../api/get-receipts';

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

const STATUS_TONES = { paid: 'success', partially_refunded: 'warning', refunded: 'neutral' } as const;

/**
 * The account page's receipts (issue 19): every payment of the user (credits and extra packs)
 * with its date, what it bought, its amount and status (refunds included) and Stripe's receipt
 * when Stripe has one, with the daily subscription's paid invoices.
 */
export function ReceiptsSection() {
  const receipts = useReceipts();
  return (
    <Card role="region" aria-labelledby="receipts-heading">
      <CardHeader>
        <CardTitle id="receipts-heading" className="flex items-center gap-2">
          <ReceiptIcon aria-hidden="true" className="size-5 text-violet-600 dark:text-violet-400" /> Receipts
        </CardTitle>
        <CardDescription>Your payments for credits, extra generation packs and the daily subscription.</CardDescription>
      </CardHeader>
      <CardContent>
        {receipts.isPending ? <Spinner label="Loading receipts" /> : null}
        {receipts.isError ? (
          <p className="text-sm text-muted-foreground">Your receipts are unavailable right now.</p>
        ) : null}
        {receipts.data?.length === 0 ? <p className="text-sm text-muted-foreground">No payments yet.</p> : null}
        {receipts.data && receipts.data.length > 0 ? (
          <ul aria-label="Payments" className="grid gap-2">
            {receipts.data.map((receipt) => (
              <ReceiptRow key={receipt.id} receipt={receipt} />
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}

function ReceiptRow({ receipt }: { receipt: Receipt }) {
  return (
    <li className="grid gap-2 rounded-lg border border-border p-3 sm:grid-cols-[8rem_minmax(0,1fr)_auto_auto] sm:items-center sm:gap-4">
      <time dateTime={receipt.createdAt} className="text-sm text-muted-foreground">
        {dateFormat.format(new Date(receipt.createdAt))}
      </time>
      <p className="min-w-0 text-sm font-medium break-words">{receipt.description}</p>
      <div className="flex items-center gap-2 sm:justify-end">
        <span className="text-sm font-semibold tabular-nums">{formatUsd(receipt.amountCents)}</span>
        <Badge tone={STATUS_TONES[receipt.status]}>{receiptStatusLabel(receipt.status)}</Badge>
        {receipt.status === 'partially_refunded' ? (
          <span className="text-xs text-muted-foreground tabular-nums">{formatUsd(receipt.refundedCents)} back</span>
        ) : null}
      </div>
      {receipt.receiptUrl ? (
        <a
          href={receipt.receiptUrl}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-sm font-medium text-violet-700 underline-offset-4 hover:underline dark:text-violet-300"
        >
          Receipt <ExternalLink aria-hidden="true" className="size-3.5" />
        </a>
      ) : (
        <span className="text-xs text-muted-foreground">No receipt link</span>
      )}
    </li>
  );
}
