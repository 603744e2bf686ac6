import type { ServiceContext } from '../../context';
import type { WebhookDeliveryRow } from '../../db/schema';
import { sendWebhook } from './send';
import { signatureHeaders } from './signature';
import * as repo from './webhooks.repository';

// The worker's side of the deliveries queue: claim a due delivery, sign and send it, and write the
// attempt to its log with the next try. The schedule follows the Standard Webhooks example (5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h) and ends with a last try 24 hours after the first.

/** Delays before attempts 2..8; the sum is exactly 24 hours. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  6 * 3_600_000 + 24 * 60_000 + 55_000,
];
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A send takes at most 10 s; a worker that has not written its attempt after this has died. */
export const DELIVERY_LEASE_SECONDS = 60;
/** How long the delivery log keeps a delivery. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3_600_000;

const USER_AGENT = 'Reelsmith-Webhooks/1.0';

/** Sends one claimed delivery and records the attempt; answers the delivery as it is now. */
export async function attemptDelivery(ctx: ServiceContext, claimed: repo.ClaimedDelivery): Promise<WebhookDeliveryRow> {
  const { delivery, endpoint } = claimed;
  const at = ctx.now();
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...signatureHeaders(endpoint.secret, delivery.messageId, delivery.payload, at),
  };
  const result = await sendWebhook(endpoint.url, headers, delivery.payload, { config: ctx.config.webhooks });
  const attempt = {
    attempt: delivery.attempts,
    responseStatus: result.status,
    durationMs: result.durationMs,
    error: result.error,
    at: at.toISOString(),
  };
  const delay = RETRY_DELAYS_MS[delivery.attempts - 1];
  const next = result.ok
    ? { status: 'succeeded' as const, nextAttemptAt: null }
    : delay === undefined
      ? { status: 'failed' as const, nextAttemptAt: null }
      : { status: 'pending' as const, nextAttemptAt: new Date(at.getTime() + delay) };
  await repo.recordAttempt(ctx.db, delivery.id, attempt, next);
  return { ...delivery, ...next, leaseExpiresAt: null, log: [...delivery.log, attempt] };
}

/** Claims and sends the delivery due first; false when none is due. */
export async function deliverDueWebhook(ctx: ServiceContext): Promise<boolean> {
  const claimed = await repo.claimDue(ctx.db, ctx.now(), DELIVERY_LEASE_SECONDS);
  if (!claimed) return false;
  await attemptDelivery(ctx, claimed);
  return true;
}

/** The retention sweeper's part: deliveries older than a week leave the log. */
export function pruneWebhookDeliveries(ctx: ServiceContext): Promise<number> {
  return repo.deleteDeliveriesBefore(ctx.db, new Date(ctx.now().getTime() - DELIVERY_RETENTION_MS));
}
