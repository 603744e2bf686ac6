import type { UseMutationResult } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';

import type { WebhookDelivery, WebhookDeliveryStatus } from '../../../../shared/webhooks';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useDeliveries } from '../api/webhooks';

const TIME = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

const STATUS: Record<WebhookDeliveryStatus, { label: string; tone: 'success' | 'danger' | 'warning' | 'neutral' }> = {
  succeeded: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  pending: { label: 'Retrying', tone: 'warning' },
  delivering: { label: 'Sending', tone: 'neutral' },
};

/** One endpoint's latest deliveries: event, status, each attempt's answer, and Redeliver. */
export function DeliveryLog({
  endpointId,
  redeliver,
}: {
  endpointId: string;
  redeliver: UseMutationResult<WebhookDelivery, Error, string>;
}) {
  const deliveries = useDeliveries(endpointId);
  if (deliveries.isError) return <p className="text-sm text-destructive">The deliveries could not be loaded.</p>;
  if (!deliveries.data) return <Spinner label="Loading deliveries" />;
  if (deliveries.data.length === 0)
    return <p className="text-sm text-muted-foreground">Nothing sent yet. Send a test event to try the endpoint.</p>;

  function handleRedeliver(id: string) {
    redeliver.mutate(id, {
      onSuccess: (delivery) =>
        toast(
          delivery.status === 'succeeded'
            ? { title: 'Redelivered', description: `Your endpoint answered ${delivery.log[0]?.responseStatus ?? ''}.` }
            : {
                variant: 'destructive',
                title: 'Not Delivered',
                description: `${delivery.log[0]?.error ?? 'No answer.'} It will be retried.`,
              },
        ),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Not Sent',
          description: getServerMessage(error) ?? 'Please try again.',
        }),
    });
  }

  return (
    <ul className="grid gap-2" aria-label="Deliveries">
      {deliveries.data.map((delivery) => {
        const status = STATUS[delivery.status];
        const last = delivery.log[0];
        return (
          <li key={delivery.id} className="grid gap-1.5 rounded-md bg-muted/50 p-3 text-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="flex flex-wrap items-center gap-2">
                <code className="font-mono text-xs">{delivery.eventType}</code>
                <Badge tone={status.tone}>{status.label}</Badge>
              </span>
              <Button
                size="sm"
                variant="ghost"
                disabled={redeliver.isPending}
                onClick={() => handleRedeliver(delivery.id)}
                aria-label={`Redeliver ${delivery.eventType} of ${TIME.format(new Date(delivery.createdAt))}`}
              >
                <RotateCcw aria-hidden="true" /> Redeliver
              </Button>
            </div>
            {last ? (
              <p className="text-muted-foreground">
                Attempt {last.attempt}: {last.responseStatus !== null ? `HTTP ${last.responseStatus}` : 'no answer'} in{' '}
                {last.durationMs} ms, {TIME.format(new Date(last.at))}
                {last.error && last.responseStatus === null ? ` · ${last.error}` : ''}
              </p>
            ) : null}
            {delivery.nextAttemptAt ? (
              <p className="text-muted-foreground">Next try {TIME.format(new Date(delivery.nextAttemptAt))}</p>
            ) : null}
            {delivery.log.length > 1 ? (
              <details className="text-muted-foreground">
                <summary className="cursor-pointer">All {delivery.log.length} attempts</summary>
                <ol className="mt-1 grid gap-0.5">
                  {delivery.log.map((attempt) => (
                    <li key={attempt.attempt}>
                      {attempt.attempt}. {attempt.responseStatus ?? '—'} · {attempt.durationMs} ms ·{' '}
                      {TIME.format(new Date(attempt.at))}
                      {attempt.error ? ` · ${attempt.error}` : ''}
                    </li>
                  ))}
                </ol>
              </details>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
