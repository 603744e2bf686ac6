import type { FastifyBaseLogger } from 'fastify';
import type { LiveBalance, LiveEventName } from '../../../shared/live-events';
import type { ServiceContext } from '../../context';
import type { StopListening } from '../../db/notifications';
import type { UserRow } from '../../db/schema';
import { findGeneration, listGenerations, presentRecords } from '../generations/generations.service';
import { generationStatus } from '../money/allowances.service';
import { findUserById, presentUserStatus } from '../users/users.service';
import { LIVE_EVENTS_CHANNEL } from './live-events.service';
import * as repo from './live-events.repository';

/** Where a stream's bytes go (the route adapts the HTTP response to this). */
export interface StreamSink {
  write(chunk: string): void;
  /** Bytes written but not yet taken by the client. */
  backlog(): number;
  end(): void;
  onClose(listener: () => void): void;
}

export interface LiveHub {
  /** Open streams of one user in this process. */
  streamsOf(userId: string): number;
  /** All open streams in this process. */
  size(): number;
  /** Serves one stream until the client leaves or the hub closes. */
  open(stream: { userId: string; sessionId: string; sink: StreamSink; lastEventId: string | undefined }): Promise<void>;
  /** Ends every stream and stops listening (server shutdown). */
  close(): Promise<void>;
}

/** Events committed out of id order are caught on resume by also taking those this close in time. */
const RESUME_SLACK_MS = 30_000;
/** Sessions of open streams are checked every this many heartbeats (a signed-out tab's stream ends). */
const SESSION_CHECK_EVERY = 6;
/** A client that takes nothing while this much waits for it is dropped (it reconnects and resumes). */
const MAX_BACKLOG_BYTES = 1024 * 1024;

interface Stream {
  userId: string;
  sessionId: string;
  sink: StreamSink;
  /** False until its snapshot or resume is written: events before that are covered by it. */
  ready: boolean;
  closed: boolean;
  /** The highest event id written to it. */
  lastId: number;
}

interface Outgoing {
  id: number;
  name: LiveEventName;
  data: unknown;
}

/** Changes of one user waiting to be read and pushed: generation id -> newest event id, and the balance's. */
interface Pending {
  generations: Map<string, number>;
  balance: number;
}

const frame = (event: Outgoing) =>
  `${event.id > 0 ? `id: ${event.id}\n` : ''}event: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;

function parseNotification(
  payload: string,
): { id: number; userId: string; kind: string; generationId: string | null } | null {
  try {
    const value = JSON.parse(payload) as { id?: unknown; u?: unknown; k?: unknown; g?: unknown };
    if (typeof value.id !== 'number' || typeof value.u !== 'string' || typeof value.k !== 'string') return null;
    return { id: value.id, userId: value.u, kind: value.k, generationId: typeof value.g === 'string' ? value.g : null };
  } catch {
    return null;
  }
}

/**
 * The web process's side of live updates (decision 011): it LISTENs on the database (one
 * connection per process), keeps the open streams by user, and for each notification of a user
 * with a stream here reads the current state once and writes it to that user's streams only.
 * Work for one user runs in order (a snapshot, then later changes); users do not wait on each other.
 */
export function createLiveHub(ctx: ServiceContext, log: FastifyBaseLogger): LiveHub {
  const byUser = new Map<string, Set<Stream>>();
  const chains = new Map<string, Promise<void>>();
  const pending = new Map<string, Pending>();
  let listening: Promise<StopListening> | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let ticks = 0;
  let closed = false;

  /** Runs `work` after the user's earlier work; the chain is dropped when it ends idle. */
  const enqueue = (userId: string, work: () => Promise<void>) => {
    const next = (chains.get(userId) ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) => log.warn({ err: error }, 'live update failed'));
    chains.set(userId, next);
    void next.then(() => {
      if (chains.get(userId) === next) chains.delete(userId);
    });
  };

  const write = (stream: Stream, events: Outgoing[]) => {
    if (stream.closed || events.length === 0) return;
    stream.sink.write(events.map(frame).join(''));
    stream.lastId = Math.max(stream.lastId, ...events.map((event) => event.id));
    if (stream.sink.backlog() > MAX_BACKLOG_BYTES) end(stream);
  };

  const end = (stream: Stream) => {
    if (stream.closed) return;
    stream.closed = true;
    stream.sink.end();
    remove(stream);
  };

  const remove = (stream: Stream) => {
    stream.closed = true;
    const set = byUser.get(stream.userId);
    set?.delete(stream);
    if (set?.size === 0) byUser.delete(stream.userId);
  };

  const balanceOf = async (user: UserRow): Promise<LiveBalance> => ({
    status: presentUserStatus(user),
    generationStatus: await generationStatus(ctx, user),
  });

  /** Current state of the given generations (deleted ones as such) and, when asked, the balance. */
  const changes = async (
    userId: string,
    generationIds: Map<string, number>,
    balanceId: number,
  ): Promise<Outgoing[]> => {
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
      if (user) events.push({ id: balanceId, name: 'balance', data: await balanceOf(user) });
    }
    return events.sort((a, b) => a.id - b.id);
  };

  const snapshot = async (userId: string): Promise<Outgoing[] | null> => {
    const user = await findUserById(ctx.db, userId);
    if (!user) return null;
    const [generations, balance] = await Promise.all([
      listGenerations(ctx, userId).then((rows) => presentRecords(ctx, rows)),
      balanceOf(user),
    ]);
    return [{ id: user.liveVersion, name: 'snapshot', data: { generations, balance } }];
  };

  /** What a stream missed since `lastId`; a fresh snapshot when that event is unknown (too old, or not theirs). */
  const catchUp = async (userId: string, lastId: number): Promise<Outgoing[] | null> => {
    const at = lastId > 0 ? await repo.findUserEventTime(ctx.db, userId, lastId) : null;
    if (!at) return snapshot(userId);
    const missed = await repo.userEventsSince(ctx.db, userId, lastId, new Date(at.getTime() - RESUME_SLACK_MS));
    const generations = new Map<string, number>();
    let balance = 0;
    for (const event of missed) {
      if (event.kind === 'balance') balance = Math.max(balance, event.id);
      else if (event.generationId)
        generations.set(event.generationId, Math.max(generations.get(event.generationId) ?? 0, event.id));
    }
    return changes(userId, generations, balance);
  };

  const start = (stream: Stream, lastId: number) =>
    enqueue(stream.userId, async () => {
      if (stream.closed) return;
      const events = await catchUp(stream.userId, lastId);
      if (events === null) return end(stream);
      write(stream, events);
      stream.ready = true;
    });

  const flush = async (userId: string) => {
    const work = pending.get(userId);
    pending.delete(userId);
    const streams = [...(byUser.get(userId) ?? [])].filter((stream) => stream.ready);
    if (!work || streams.length === 0) return;
    const events = await changes(userId, work.generations, work.balance);
    for (const stream of streams) write(stream, events);
  };

  const onPayload = (payload: string) => {
    const event = parseNotification(payload);
    // Authorization: a change reaches only the streams opened by its own user's sessions.
    if (!event || !byUser.has(event.userId)) return;
    let work = pending.get(event.userId);
    if (!work) {
      work = { generations: new Map(), balance: 0 };
      pending.set(event.userId, work);
      enqueue(event.userId, () => flush(event.userId));
    }
    if (event.kind === 'balance') work.balance = Math.max(work.balance, event.id);
    else if (event.generationId)
      work.generations.set(event.generationId, Math.max(work.generations.get(event.generationId) ?? 0, event.id));
  };

  /** The listening connection came back: whatever happened meanwhile is caught up per stream. */
  const onReconnect = () => {
    for (const streams of byUser.values()) {
      for (const stream of streams) if (stream.ready) start(stream, stream.lastId);
    }
  };

  const checkSessions = async () => {
    const streams = [...byUser.values()].flatMap((set) => [...set]);
    const live = await repo.liveSessionIds(ctx.db, [...new Set(streams.map((stream) => stream.sessionId))]);
    for (const stream of streams) if (!live.has(stream.sessionId)) end(stream);
  };

  const tick = () => {
    for (const streams of byUser.values()) for (const stream of streams) stream.sink.write(': ping\n\n');
    ticks += 1;
    if (ticks % SESSION_CHECK_EVERY === 0 && byUser.size > 0) {
      checkSessions().catch((error: unknown) => log.warn({ err: error }, 'live stream session check failed'));
    }
  };

  const ensureListening = () => {
    if (!listening) {
      const started = ctx.database.listen(LIVE_EVENTS_CHANNEL, {
        onPayload,
        onReconnect,
        onError: (error) => log.warn({ err: error }, 'live events connection problem'),
      });
      listening = started;
      started.catch(() => {
        if (listening === started) listening = null;
      });
    }
    if (!heartbeat) {
      heartbeat = setInterval(tick, ctx.config.liveHeartbeatMs);
      heartbeat.unref();
    }
    return listening;
  };

  return {
    streamsOf: (userId) => byUser.get(userId)?.size ?? 0,
    size: () => [...byUser.values()].reduce((sum, set) => sum + set.size, 0),
    async open({ userId, sessionId, sink, lastEventId }) {
      if (closed) return sink.end();
      const stream: Stream = { userId, sessionId, sink, ready: false, closed: false, lastId: 0 };
      const set = byUser.get(userId) ?? new Set<Stream>();
      set.add(stream);
      byUser.set(userId, set);
      sink.onClose(() => remove(stream));
      try {
        await ensureListening();
      } catch (error) {
        // Without the database's notifications there is nothing to stream: the client polls instead.
        log.error({ err: error }, 'could not listen for live events');
        return end(stream);
      }
      const lastId = lastEventId && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : 0;
      start(stream, lastId);
    },
    async close() {
      closed = true;
      if (heartbeat) clearInterval(heartbeat);
      for (const set of [...byUser.values()]) for (const stream of [...set]) end(stream);
      const stop = listening;
      listening = null;
      if (stop) await (await stop.catch(() => null))?.();
    },
  };
}
