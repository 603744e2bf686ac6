import { lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { type LiveEventKind, liveEvents } from '../db/schema';

/** The NOTIFY channel every process LISTENs on. */
export const LIVE_EVENTS_CHANNEL = 'reelsmith_live_events';

/**
 * What a notification carries: which event, whose, and what changed (never the state itself).
 * `subscribe.ts` reads these keys back.
 */
const notifyPayload = sql`json_build_object('id', e.id, 'u', e.user_id, 'k', e.kind, 'g', e.generation_id)::text`;

/**
 * The NOTIFY of a live event row written by a caller's own statement, as a common table expression
 * named `e` returning id, user_id, kind and generation_id: for a statement that writes its change
 * and its event together (the caller moves the user's live_version to the event's id too).
 */
export const liveEventNotification: SQL = sql`pg_notify(${LIVE_EVENTS_CHANNEL}, ${notifyPayload})`;

/**
 * Records one change and NOTIFYs it, in one statement: inside a transaction the notification is
 * sent at commit (never for a rolled-back change); the user's live_version (their list ETag) moves
 * with it.
 */
export async function recordEvent(
  tx: Executor,
  event: { userId: string; kind: LiveEventKind; generationId: string | null },
): Promise<void> {
  await tx.execute(sql`
    WITH e AS (
      INSERT INTO live_events (user_id, kind, generation_id)
      VALUES (${event.userId}, ${event.kind}, ${event.generationId})
      RETURNING id, user_id, kind, generation_id
    ), v AS (
      UPDATE users SET live_version = greatest(users.live_version, e.id) FROM e WHERE users.id = e.user_id RETURNING users.id
    )
    SELECT pg_notify(${LIVE_EVENTS_CHANNEL}, ${notifyPayload}) FROM e`);
}

/** Serialises the statements that lock many users' rows at once, so two of them never deadlock. */
const QUEUE_MOVED_LOCK = 727_004;

/**
 * The queue moved (a job was claimed or went back): every waiting job's position changed, so each
 * gets an event. Bounded: positions past the first `limit` waiting jobs are refreshed on their next
 * change. Call inside a transaction: it takes a transaction-scoped lock first.
 */
export async function recordQueueMoved(tx: Executor, limit: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${QUEUE_MOVED_LOCK})`);
  await tx.execute(sql`
    WITH w AS (
      SELECT id, user_id FROM generations WHERE status = 'pending' ORDER BY created_at, id LIMIT ${limit}
    ), e AS (
      INSERT INTO live_events (user_id, kind, generation_id)
      SELECT user_id, 'generation', id FROM w
      RETURNING id, user_id, kind, generation_id
    ), v AS (
      UPDATE users SET live_version = greatest(users.live_version, m.id)
      FROM (SELECT user_id, max(id) AS id FROM e GROUP BY user_id) m
      WHERE users.id = m.user_id RETURNING users.id
    )
    SELECT pg_notify(${LIVE_EVENTS_CHANNEL}, ${notifyPayload}) FROM e`);
}

export async function deleteEventsBefore(tx: Executor, before: Date): Promise<number> {
  const rows = await tx.delete(liveEvents).where(lt(liveEvents.createdAt, before)).returning({ id: liveEvents.id });
  return rows.length;
}
