import type { ServiceContext } from '../context';
import type { Executor } from '../db/client';
import * as repo from './live-events.repository';

/** Events are kept this long for reconnecting streams; an older Last-Event-ID gets a fresh snapshot. */
export const LIVE_EVENT_RETENTION_MS = 15 * 60 * 1000;
/** How many waiting jobs hear that the queue moved (positions further back update on their own next change). */
const QUEUE_EVENT_LIMIT = 500;

/**
 * Tells the user's open streams that one of their generations changed (status, stage, progress,
 * completion). Call it inside the transaction that made the change, or right after it.
 */
export function publishGenerationChange(tx: Executor, userId: string, generationId: string): Promise<void> {
  return repo.recordEvent(tx, { userId, kind: 'generation', generationId });
}

/** Tells the user's open streams that their credits, daily or pack generations changed. */
export function publishBalanceChange(tx: Executor, userId: string): Promise<void> {
  return repo.recordEvent(tx, { userId, kind: 'balance', generationId: null });
}

/** Tells every waiting job's owner that its place in the queue (and its estimate) moved; its own transaction, right after the change. */
export function publishQueueMoved(ctx: ServiceContext): Promise<void> {
  return ctx.db.transaction((tx) => repo.recordQueueMoved(tx, QUEUE_EVENT_LIMIT));
}

/** The retention sweeper's part: events older than the reconnect window. */
export function pruneLiveEvents(ctx: ServiceContext): Promise<number> {
  return repo.deleteEventsBefore(ctx.db, new Date(ctx.now().getTime() - LIVE_EVENT_RETENTION_MS));
}
