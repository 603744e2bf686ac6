import type { LiveBalance } from '../../../shared/live-events';
import type { ServiceContext } from '../../context';
import type { UserRow } from '../../db/schema';
import type { LiveEventHandlers } from '../../bus/subscribe';
import { findGeneration, listGenerations, presentRecords } from '../generations/generations.service';
import { presentBalance } from '../money/balance.service';
import { findUserById } from '../users/users.service';
import * as repo from './live-stream.repository';
import { allStreams, endStream, type LiveStreams, type Outgoing, type Stream, writeEvents } from './streams';

/** Events committed out of id order are caught on resume by also taking those this close in time. */
const RESUME_SLACK_MS = 30_000;

/** Changes of one user waiting to be read and pushed: generation id -> newest event id, and the balance's. */
interface Pending {
  generations: Map<string, number>;
  balance: number;
}

/**
 * The hub's subscriber to the live events bus: it notes each change of a user with a stream here
 * and, in that user's turn, reads the current state once and writes it to their ready streams.
 * Changes that arrive while a read waits are merged into the next one.
 */
export function handleNotifications(ctx: ServiceContext, streams: LiveStreams): LiveEventHandlers {
  const pending = new Map<string, Pending>();
  /** The user's changes waiting to be read; null when no stream of theirs is here. */
  const pendingOf = (userId: string): Pending | null => {
    // Authorization: a change reaches only the streams opened by its own user's sessions.
    if (!streams.byUser.has(userId)) return null;
    let work = pending.get(userId);
    if (!work) {
      work = { generations: new Map(), balance: 0 };
      pending.set(userId, work);
      streams.enqueue(userId, () => flush(ctx, streams, pending, userId));
    }
    return work;
  };
  return {
    generation: (event) => {
      const work = pendingOf(event.userId);
      if (work)
        work.generations.set(event.generationId, Math.max(work.generations.get(event.generationId) ?? 0, event.id));
    },
    balance: (event) => {
      const work = pendingOf(event.userId);
      if (work) work.balance = Math.max(work.balance, event.id);
    },
    // The listening connection came back: whatever happened meanwhile is caught up per stream.
    onReconnect: () => {
      for (const stream of allStreams(streams)) if (stream.ready) startStream(ctx, streams, stream, stream.lastId);
    },
    onError: (error) => streams.log.warn({ err: error }, 'live events connection problem'),
  };
}

/** Writes a stream's snapshot, or what it missed since `lastId`; it takes later changes only after that. */
export function startStream(ctx: ServiceContext, streams: LiveStreams, stream: Stream, lastId: number): void {
  streams.enqueue(stream.userId, async () => {
    if (stream.closed) return;
    const events = await catchUp(ctx, stream.userId, lastId);
    if (events === null) return endStream(streams, stream);
    writeEvents(streams, stream, events);
    stream.ready = true;
  });
}

async function flush(
  ctx: ServiceContext,
  streams: LiveStreams,
  pending: Map<string, Pending>,
  userId: string,
): Promise<void> {
  const work = pending.get(userId);
  pending.delete(userId);
  const ready = [...(streams.byUser.get(userId) ?? [])].filter((stream) => stream.ready);
  if (!work || ready.length === 0) return;
  const events = await readChanges(ctx, userId, work.generations, work.balance);
  for (const stream of ready) writeEvents(streams, stream, events);
}

/** What a stream missed since `lastId`; a fresh snapshot when that event is unknown (too old, or not theirs). */
async function catchUp(ctx: ServiceContext, userId: string, lastId: number): Promise<Outgoing[] | null> {
  const at = lastId > 0 ? await repo.findUserEventTime(ctx.db, userId, lastId) : null;
  if (!at) return readSnapshot(ctx, userId);
  const missed = await repo.userEventsSince(ctx.db, userId, lastId, new Date(at.getTime() - RESUME_SLACK_MS));
  const generations = new Map<string, number>();
  let balance = 0;
  for (const event of missed) {
    if (event.kind === 'balance') balance = Math.max(balance, event.id);
    // A balance event that names a generation (its payment) announces that generation too.
    if (event.generationId)
      generations.set(event.generationId, Math.max(generations.get(event.generationId) ?? 0, event.id));
  }
  return readChanges(ctx, userId, generations, balance);
}

/** The user's list and balance as one event; null when the user is gone. */
async function readSnapshot(ctx: ServiceContext, userId: string): Promise<Outgoing[] | null> {
  const user = await findUserById(ctx.db, userId);
  if (!user) return null;
  const [generations, balance] = await Promise.all([
    listGenerations(ctx, userId).then((rows) => presentRecords(ctx, rows)),
    readBalance(ctx, user),
  ]);
  return [{ id: user.liveVersion, name: 'snapshot', data: { generations, balance } }];
}

/** Current state of the given generations (deleted ones as such) and, when asked, the balance. */
async function readChanges(
  ctx: ServiceContext,
  userId: string,
  generationIds: Map<string, number>,
  balanceId: number,
): Promise<Outgoing[]> {
  const entries = [...generationIds];
  const rows = await Promise.all(entries.map(([id]) => findGeneration(ctx, userId, id)));
  const records = await presentRecords(
    ctx,
    rows.filter((row) => row !== null),
  );
  const byId = new Map(records.map((record) => [record.id, record]));
  const events: Outgoing[] = entries.map(([id, eventId]) => {
    const record = byId.get(id);
    return record
      ? { id: eventId, name: 'generation', data: record }
      : { id: eventId, name: 'generation-deleted', data: { id } };
  });
  if (balanceId > 0) {
    const user = await findUserById(ctx.db, userId);
    if (user) events.push({ id: balanceId, name: 'balance', data: await readBalance(ctx, user) });
  }
  return events.sort((a, b) => a.id - b.id);
}

/** The same answer as GET /api/user/balance. */
function readBalance(ctx: ServiceContext, user: UserRow): Promise<LiveBalance> {
  return presentBalance(ctx, user);
}
