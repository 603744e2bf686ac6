import {
  type CreatedWebhook,
  type CreateWebhook,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../../shared/webhooks';
import type { ServiceContext } from '../../context';
import type { Executor } from '../../db/client';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { checkWebhookUrl, type Resolve } from './address-policy';
import { attemptDelivery, DELIVERY_LEASE_SECONDS } from './delivery.service';
import { newMessageId, newWebhookSecret } from './signature';
import * as repo from './webhooks.repository';

export { deliverDueWebhook, pruneWebhookDeliveries, RETRY_DELAYS_MS } from './delivery.service';

/** How many deliveries GET .../deliveries shows (newest first). */
const DELIVERY_LOG_LIMIT = 50;

const presentEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdAt: row.createdAt.toISOString(),
});

export const presentDelivery = (row: WebhookDeliveryRow): WebhookDelivery => ({
  id: row.id,
  messageId: row.messageId,
  eventType: row.eventType,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  createdAt: row.createdAt.toISOString(),
  log: [...row.log].reverse(),
});

/** The body of every webhook: Standard Webhooks' `type`, `timestamp` (of the event) and `data`. */
const payloadOf = (type: string, data: unknown, at: Date) =>
  JSON.stringify({ type, timestamp: at.toISOString(), data });

/**
 * Adds an endpoint after checking its URL (no private or reserved address, however written or
 * resolved; https in production), at most MAX_WEBHOOK_ENDPOINTS per user. Answers it with its
 * signing secret, which is never shown again.
 */
export async function createEndpoint(
  ctx: ServiceContext,
  userId: string,
  body: CreateWebhook,
  resolve?: Resolve,
): Promise<CreatedWebhook> {
  const checked = await checkWebhookUrl(body.url, ctx.config.webhooks, resolve);
  const secret = newWebhookSecret();
  const row = await ctx.db.transaction(async (tx) => {
    if ((await repo.lockAndCountEndpoints(tx, userId)) >= MAX_WEBHOOK_ENDPOINTS)
      throw new AppError(
        409,
        'webhook_limit',
        `You can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one to add another.`,
      );
    return repo.insertEndpoint(tx, { userId, url: checked.url.toString(), events: body.events, secret });
  });
  return { ...presentEndpoint(row), secret };
}

export async function listEndpoints(ctx: ServiceContext, userId: string): Promise<WebhookEndpoint[]> {
  return (await repo.listEndpoints(ctx.db, userId)).map(presentEndpoint);
}

/** Removes an endpoint with its delivery log; undelivered events for it are dropped. */
export async function deleteEndpoint(ctx: ServiceContext, userId: string, id: string): Promise<void> {
  if (!(await repo.deleteEndpoint(ctx.db, userId, id))) throw endpointNotFound();
}

/**
 * Removes the user's endpoints when a key to the account changes hands (decision 018): every one, or
 * only those added while the account's email was unproven. Their queued deliveries go with them. In
 * the caller's transaction; answers how many.
 */
export function removeEndpointsIn(tx: Executor, userId: string, which: 'all' | 'unproven'): Promise<number> {
  return repo.deleteUserEndpoints(tx, userId, which === 'unproven');
}

const endpointNotFound = () => notFound('Webhook endpoint not found', 'webhook_not_found');

async function requireEndpoint(ctx: ServiceContext, userId: string, id: string): Promise<WebhookEndpointRow> {
  const endpoint = await repo.findEndpoint(ctx.db, userId, id);
  if (!endpoint) throw endpointNotFound();
  return endpoint;
}

/** The endpoint's latest deliveries, each with its attempts (newest first). */
export async function listDeliveries(ctx: ServiceContext, userId: string, id: string): Promise<WebhookDelivery[]> {
  await requireEndpoint(ctx, userId, id);
  return (await repo.listDeliveries(ctx.db, id, DELIVERY_LOG_LIMIT)).map(presentDelivery);
}

/**
 * Sends one delivery row now, in this request, and answers it. It is inserted as 'delivering' under a
 * lease, so no worker claims it while this request sends it.
 */
async function sendNow(
  ctx: ServiceContext,
  endpoint: WebhookEndpointRow,
  row: { messageId: string; eventType: string; payload: string },
): Promise<WebhookDelivery> {
  const now = ctx.now();
  const leaseExpiresAt = new Date(now.getTime() + DELIVERY_LEASE_SECONDS * 1000);
  const [delivery] = await repo.insertDeliveries(ctx.db, [
    { ...row, endpointId: endpoint.id, status: 'delivering', attempts: 1, nextAttemptAt: now, leaseExpiresAt },
  ]);
  if (!delivery) throw new Error('insert returned no row');
  return presentDelivery(await attemptDelivery(ctx, { delivery, endpoint }));
}

/** Sends a `webhook.test` event to the endpoint at once; failures are retried like any delivery. */
export async function sendTestEvent(ctx: ServiceContext, userId: string, id: string): Promise<WebhookDelivery> {
  const endpoint = await requireEndpoint(ctx, userId, id);
  const data = { endpointId: endpoint.id, message: 'This is a test event from Reelsmith.' };
  return sendNow(ctx, endpoint, {
    messageId: newMessageId(),
    eventType: WEBHOOK_TEST_EVENT,
    payload: payloadOf(WEBHOOK_TEST_EVENT, data, ctx.now()),
  });
}

/**
 * Sends a past delivery's event again, now, as a new delivery with the same body and webhook-id (so
 * a receiver that already handled it can tell), with its own retries.
 */
export async function redeliver(
  ctx: ServiceContext,
  userId: string,
  id: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const endpoint = await requireEndpoint(ctx, userId, id);
  const past = await repo.findDelivery(ctx.db, endpoint.id, deliveryId);
  if (!past) throw notFound('Delivery not found', 'webhook_delivery_not_found');
  return sendNow(ctx, endpoint, { messageId: past.messageId, eventType: past.eventType, payload: past.payload });
}

/**
 * Queues an event for each of the user's endpoints that take it, inside the caller's transaction (so
 * it is sent exactly when the change it reports commits). `data` is computed only when some endpoint
 * wants the event.
 */
export async function recordWebhookEvent(
  tx: Executor,
  event: { userId: string; type: WebhookEventType; at: Date; data: () => unknown },
): Promise<void> {
  const endpoints = await repo.endpointsFor(tx, event.userId, event.type);
  if (endpoints.length === 0) return;
  const payload = payloadOf(event.type, await event.data(), event.at);
  await repo.insertDeliveries(
    tx,
    endpoints.map((endpoint) => ({
      endpointId: endpoint.id,
      messageId: newMessageId(),
      eventType: event.type,
      payload,
      nextAttemptAt: event.at,
    })),
  );
}
