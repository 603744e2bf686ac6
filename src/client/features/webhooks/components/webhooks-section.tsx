import { Check, Copy, Send, Trash2, Webhook } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';

import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type CreatedWebhook,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../../../shared/webhooks';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeaderRow } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { getServerMessage } from '../../../lib/api-client';
import { useCreateWebhook, useDeleteWebhook, useSendWebhook, useWebhooks } from '../api/webhooks';
import { DeliveryLog } from './delivery-log';

const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const MAX_ENDPOINTS = 10;

/** The account page's webhooks: add an endpoint (its secret shown once), list, test, delete, and each one's deliveries. */
export function WebhooksSection() {
  const webhooks = useWebhooks();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return (
    <Card>
      <CardHeaderRow icon={<Webhook aria-hidden="true" />} title="Webhooks" />
      <CardContent className="grid gap-5">
        <CardDescription>
          Let your own programs hear when a video is ready or fails. Each request is signed the Standard Webhooks way,
          so your receiver can check it came from here.
        </CardDescription>
        {created ? <SecretOnce created={created} onDone={() => setCreated(null)} /> : null}
        {webhooks.data ? (
          <>
            <EndpointList endpoints={webhooks.data} />
            {webhooks.data.length < MAX_ENDPOINTS ? (
              <AddEndpointForm onCreated={setCreated} />
            ) : (
              <p className="text-sm text-muted-foreground">
                You have {MAX_ENDPOINTS} endpoints, the most there can be. Delete one to add another.
              </p>
            )}
          </>
        ) : webhooks.isError ? (
          <p className="text-sm text-destructive">Your webhooks could not be loaded. Please reload the page.</p>
        ) : (
          <Spinner label="Loading your webhooks" />
        )}
      </CardContent>
    </Card>
  );
}

function AddEndpointForm({ onCreated }: { onCreated: (created: CreatedWebhook) => void }) {
  const create = useCreateWebhook();
  const urlId = useId();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['video.completed', 'video.failed']);
  const [error, setError] = useState<string | null>(null);

  function toggle(event: WebhookEventType, on: boolean) {
    setEvents((current) => (on ? [...current, event] : current.filter((e) => e !== event)));
  }

  function handleSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (events.length === 0) return setError('Choose at least one event.');
    create.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (created) => {
          setUrl('');
          onCreated(created);
        },
        onError: (failure) => setError(getServerMessage(failure) ?? 'The endpoint was not added. Please try again.'),
      },
    );
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-3 rounded-lg border border-border p-4" aria-label="Add endpoint">
      <div className="grid gap-1.5">
        <Label htmlFor={urlId}>Endpoint URL</Label>
        <Input
          id={urlId}
          type="url"
          inputMode="url"
          required
          placeholder="https://example.com/reelsmith-webhooks"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={error ? true : undefined}
        />
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Events</legend>
        {WEBHOOK_EVENT_TYPES.map((event) => (
          <CheckboxField
            key={event}
            label={<code className="font-mono text-xs">{event}</code>}
            description={WEBHOOK_EVENT_LABELS[event]}
            checked={events.includes(event)}
            onCheckedChange={(checked) => toggle(event, checked)}
          />
        ))}
      </fieldset>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add endpoint'}
        </Button>
      </div>
    </form>
  );
}

/** The signing secret, shown this once, with a copy button. */
function SecretOnce({ created, onDone }: { created: CreatedWebhook; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  async function handleCopy() {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(true);
    } catch {
      toast({ variant: 'destructive', title: 'Not Copied', description: 'Select the secret and copy it by hand.' });
    }
  }
  return (
    <div
      role="status"
      className="grid gap-2 rounded-lg border border-violet-500/40 bg-violet-500/10 p-4 text-sm"
      aria-label="Signing secret"
    >
      <p className="font-semibold">Endpoint added. Copy its signing secret now: it is not shown again.</p>
      <p className="break-all text-muted-foreground">{created.url}</p>
      <code className="block rounded-md bg-background px-3 py-2 font-mono text-xs break-all select-all">
        {created.secret}
      </code>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => void handleCopy()}>
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy secret'}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

function EndpointList({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  if (endpoints.length === 0) return <p className="text-sm text-muted-foreground">No endpoints yet.</p>;
  return (
    <ul className="grid gap-3" aria-label="Webhook endpoints">
      {endpoints.map((endpoint) => (
        <EndpointItem key={endpoint.id} endpoint={endpoint} />
      ))}
    </ul>
  );
}

function EndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const remove = useDeleteWebhook();
  const send = useSendWebhook(endpoint.id);
  const [showLog, setShowLog] = useState(false);

  function handleTest() {
    send.test.mutate(undefined, {
      onSuccess: (delivery) => {
        setShowLog(true);
        const answer = delivery.log[0];
        if (delivery.status === 'succeeded')
          toast({ title: 'Test Delivered', description: `Your endpoint answered ${answer?.responseStatus ?? ''}.` });
        else
          toast({
            variant: 'destructive',
            title: 'Test Not Delivered',
            description: `${answer?.error ?? 'No answer.'} It will be retried.`,
          });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Not Sent',
          description: getServerMessage(error) ?? 'Please try again.',
        }),
    });
  }

  function handleDelete() {
    remove.mutate(endpoint.id, {
      onSuccess: () => toast({ title: 'Endpoint Deleted', description: 'It will receive no more events.' }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Not Deleted',
          description: getServerMessage(error) ?? 'Please try again.',
        }),
    });
  }

  return (
    <li className="grid gap-3 rounded-lg border border-border p-3">
      <div className="grid gap-1">
        <span className="font-medium break-all">{endpoint.url}</span>
        <span className="flex flex-wrap gap-1.5">
          {endpoint.events.map((event) => (
            <Badge key={event} tone="brand">
              {event}
            </Badge>
          ))}
        </span>
        <span className="text-xs text-muted-foreground">Added {DATE.format(new Date(endpoint.createdAt))}</span>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={send.test.isPending}
          onClick={handleTest}
          aria-label={`Send test event to ${endpoint.url}`}
        >
          <Send aria-hidden="true" /> {send.test.isPending ? 'Sending…' : 'Send test'}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={remove.isPending}
          onClick={handleDelete}
          aria-label={`Delete ${endpoint.url}`}
        >
          <Trash2 aria-hidden="true" /> Delete
        </Button>
      </div>
      {showLog ? <DeliveryLog endpointId={endpoint.id} redeliver={send.redeliver} /> : null}
    </li>
  );
}
