import { and, arrayContains, desc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  users,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema';
import type { WebhookAttempt, WebhookEventType } from '../../../shared/webhooks';

export function listEndpoints(tx: Executor, userId: string): Promise<WebhookEndpointRow[]> {
  return tx
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(desc(webhookEndpoints.createdAt));
}

export async function findEndpoint(tx: Executor, userId: string, id: string): Promise<WebhookEndpointRow | null> {
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
  return row ?? null;
}

/** Holds the user's endpoints' rows (none may be added meanwhile) and counts them. */
export async function lockAndCountEndpoints(tx: Executor, userId: string): Promise<number> {
  await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId));
  return row?.count ?? 0;
}

export async function insertEndpoint(
  tx: Executor,
  values: { userId: string; url: string; events: WebhookEventType[]; secret: string },
): Promise<WebhookEndpointRow> {
  const [row] = await tx
    .insert(webhookEndpoints)
    .values({
      ...values,
      // The account's state as the endpoint is added (its row is locked by the caller).
      madeWhileVerified: sql<boolean>`(SELECT ${users.emailVerifiedAt} IS NOT NULL FROM ${users} WHERE ${users.id} = ${values.userId})`,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Deletes the user's endpoints (only those added while the email was unproven, with `onlyUnproven`); answers how many. */
export async function deleteUserEndpoints(tx: Executor, userId: string, onlyUnproven: boolean): Promise<number> {
  const rows = await tx
    .delete(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.userId, userId),
        onlyUnproven ? eq(webhookEndpoints.madeWhileVerified, false) : undefined,
      ),
    )
    .returning({ id: webhookEndpoints.id });
  return rows.length;
}

export async function deleteEndpoint(tx: Executor, userId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** The user's endpoints that take this event. */
export function endpointsFor(tx: Executor, userId: string, type: WebhookEventType) {
  return tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), arrayContains(webhookEndpoints.events, [type])));
}

export async function insertDeliveries(
  tx: Executor,
  rows: {
    endpointId: string;
    messageId: string;
    eventType: string;
    payload: string;
    status?: 'pending' | 'delivering';
    nextAttemptAt: Date | null;
    leaseExpiresAt?: Date | null;
    attempts?: number;
  }[],
): Promise<WebhookDeliveryRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(webhookDeliveries).values(rows).returning();
}

export function listDeliveries(tx: Executor, endpointId: string, limit: number): Promise<WebhookDeliveryRow[]> {
  return tx
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function findDelivery(tx: Executor, endpointId: string, id: string): Promise<WebhookDeliveryRow | null> {
  const [row] = await tx
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
  return row ?? null;
}

/**
 * Claims the delivery due first: a pending one whose time has come, or one whose worker died while
 * sending it (lease expired). SKIP LOCKED lets any number of workers claim side by side. The claim
 * counts as an attempt.
 */
export async function claimDue(tx: Executor, now: Date, leaseSeconds: number): Promise<ClaimedDelivery | null> {
  const at = now.toISOString();
  const next = sql`(
    SELECT id FROM webhook_deliveries
    WHERE (status = 'pending' AND next_attempt_at <= ${at}::timestamptz)
       OR (status = 'delivering' AND lease_expires_at < ${at}::timestamptz)
    ORDER BY next_attempt_at
    FOR UPDATE SKIP LOCKED
    LIMIT 1
  )`;
  const [row] = await tx
    .update(webhookDeliveries)
    .set({
      status: 'delivering',
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      leaseExpiresAt: new Date(now.getTime() + leaseSeconds * 1000),
    })
    .where(eq(webhookDeliveries.id, next))
    .returning({ id: webhookDeliveries.id });
  return row ? claimedById(tx, row.id) : null;
}

export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  endpoint: WebhookEndpointRow;
}

export async function claimedById(tx: Executor, id: string): Promise<ClaimedDelivery | null> {
  const [row] = await tx
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, id));
  return row ?? null;
}

/** Writes an attempt's outcome: the log entry, and the next status and time. */
export async function recordAttempt(
  tx: Executor,
  id: string,
  attempt: WebhookAttempt,
  next: { status: 'pending' | 'succeeded' | 'failed'; nextAttemptAt: Date | null },
): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({
      status: next.status,
      nextAttemptAt: next.nextAttemptAt,
      leaseExpiresAt: null,
      log: sql`${webhookDeliveries.log} || ${JSON.stringify([attempt])}::jsonb`,
    })
    .where(eq(webhookDeliveries.id, id));
}

/** The retention sweeper's part: deliveries older than the log keeps. */
export async function deleteDeliveriesBefore(tx: Executor, before: Date): Promise<number> {
  const rows = await tx
    .delete(webhookDeliveries)
    .where(lt(webhookDeliveries.createdAt, before))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}
