import { CalendarClock, CreditCard, ExternalLink, XCircle } from 'lucide-react';
import { useState } from 'react';

import { CANCEL_SUBSCRIPTION_NOTICE, type SubscriptionDetails } from '../../../../shared/money/billing-account';
import { formatUsd } from '../../../../shared/money/payments';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeaderRow } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { browserNavigation } from '../../../lib/browser-navigation';
import { useBillingPortal, useCancelSubscription } from '../api/subscription-management';

const chargeDate = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

interface SubscriptionManageCardProps {
  details: SubscriptionDetails;
  /** The user is a subscriber now (their status): cancelling is offered. */
  subscribed: boolean;
}

/**
 * /subscribe for a subscriber (decision 012): the next charge (date and amount), 'Manage billing'
 * (Stripe's customer portal for cards and invoices), and cancelling, which ends the subscription
 * at once; the card says so before the user confirms.
 */
export function SubscriptionManageCard({ details, subscribed }: SubscriptionManageCardProps) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useCancelSubscription();
  const portal = useBillingPortal();
  const next = details.subscription?.nextChargeAt ? new Date(details.subscription.nextChargeAt) : null;
  const amount = details.subscription?.nextChargeCents ?? null;

  const openPortal = () =>
    portal.mutate(undefined, {
      onSuccess: (url) => browserNavigation.assign(url),
      onError: (error) =>
        toast({
          title: 'Billing Unavailable',
          description: getServerMessage(error) ?? error.message,
          variant: 'destructive',
        }),
    });
  const confirmCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: 'Subscription Cancelled', description: 'You will not be charged again.' });
      },
      onError: (error) =>
        toast({
          title: 'Cancel Failed',
          description: getServerMessage(error) ?? error.message,
          variant: 'destructive',
        }),
    });

  return (
    <Card>
      <CardHeaderRow icon={<CalendarClock aria-hidden="true" />} title="Your Subscription" />
      <CardContent className="grid gap-4">
        {subscribed && next ? (
          <p className="text-sm" data-testid="next-charge">
            Next charge:{' '}
            <strong className="tabular-nums">{amount !== null ? formatUsd(amount) : 'the daily price'}</strong> on{' '}
            <time dateTime={next.toISOString()}>{chargeDate.format(next)}</time>.
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">No further charge is scheduled.</p>
        )}
        {confirming ? (
          <div role="alert" className="grid gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-3">
            <p className="text-sm font-medium">{CANCEL_SUBSCRIPTION_NOTICE}</p>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button variant="destructive" disabled={cancel.isPending} onClick={confirmCancel}>
                {cancel.isPending ? 'Cancelling...' : 'Cancel now'}
              </Button>
              <Button variant="outline" disabled={cancel.isPending} onClick={() => setConfirming(false)}>
                Keep subscription
              </Button>
            </div>
          </div>
        ) : null}
        <div className="flex flex-col gap-2 sm:flex-row">
          {details.canManageBilling ? (
            <Button variant="outline" disabled={portal.isPending} onClick={openPortal}>
              <CreditCard aria-hidden="true" /> {portal.isPending ? 'Opening...' : 'Manage billing'}
              <ExternalLink aria-hidden="true" className="size-3.5 opacity-70" />
            </Button>
          ) : null}
          {subscribed && !confirming ? (
            <Button
              variant="ghost"
              className="text-destructive hover:bg-destructive/10"
              onClick={() => setConfirming(true)}
            >
              <XCircle aria-hidden="true" /> Cancel subscription
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
