import type { FastifyBaseLogger } from 'fastify';
import type { LiveEventName } from '../../../shared/live-events';
import type { ServiceContext } from '../../context';
import * as repo from './live-stream.repository';

/** Where a stream's bytes go (the route adapts the HTTP response to this). */
export interface StreamSink {
  write(chunk: string): void;
  /** Bytes written but not yet taken by the client. */
  backlog(): number;
  end(): void;
  onClose(listener: () => void): void;
}

/** One open stream: one tab of a signed-in user. */
export interface Stream {
  userId: string;
  sessionId: string;
  /** The client address it was opened from (request.ip), for the per-address cap. */
  ip: string;
  sink: StreamSink;
  /** False until its snapshot or resume is written: events before that are covered by it. */
  ready: boolean;
  closed: boolean;
  /** The highest event id written to it. */
  lastId: number;
}

/** One event as a stream sends it; id 0 (no event yet) sends no `id:` line. */
export interface Outgoing {
  id: number;
  name: LiveEventName;
  data: unknown;
}

/** This process's open streams by user, and each user's work in order. */
export interface LiveStreams {
  byUser: Map<string, Set<Stream>>;
  /** How many open streams each client address holds. */
  byAddress: Map<string, number>;
  log: FastifyBaseLogger;
  /** Runs `work` after the user's earlier work (a snapshot, then later changes); users never wait on each other. */
  enqueue(userId: string, work: () => Promise<void>): void;
}

/** Sessions of open streams are checked every this many heartbeats (a signed-out tab's stream ends). */
const SESSION_CHECK_EVERY = 6;
/** A client that takes nothing while this much waits for it is dropped (it reconnects and resumes). */
const MAX_BACKLOG_BYTES = 1024 * 1024;

const frame = (event: Outgoing) =>
  `${event.id > 0 ? `id: ${event.id}\n` : ''}event: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;

export function createLiveStreams(log: FastifyBaseLogger): LiveStreams {
  const chains = new Map<string, Promise<void>>();
  const enqueue = (userId: string, work: () => Promise<void>) => {
    const next = (chains.get(userId) ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) => log.warn({ err: error }, 'live update failed'));
    chains.set(userId, next);
    // The chain is dropped when it ends idle.
    void next.then(() => {
      if (chains.get(userId) === next) chains.delete(userId);
    });
  };
  return { byUser: new Map(), byAddress: new Map(), log, enqueue };
}

/** Keeps a new stream under its user until its client leaves. */
export function addStream(streams: LiveStreams, stream: Stream): void {
  const set = streams.byUser.get(stream.userId) ?? new Set<Stream>();
  set.add(stream);
  streams.byUser.set(stream.userId, set);
  streams.byAddress.set(stream.ip, (streams.byAddress.get(stream.ip) ?? 0) + 1);
  stream.sink.onClose(() => removeStream(streams, stream));
}

/** Forgets a stream whose client left. */
function removeStream(streams: LiveStreams, stream: Stream): void {
  stream.closed = true;
  const set = streams.byUser.get(stream.userId);
  // Only the first removal of a stream counts down its address (an ended stream's close comes after).
  if (!set?.delete(stream)) return;
  if (set.size === 0) streams.byUser.delete(stream.userId);
  const left = (streams.byAddress.get(stream.ip) ?? 1) - 1;
  if (left > 0) streams.byAddress.set(stream.ip, left);
  else streams.byAddress.delete(stream.ip);
}

/** Ends a stream from this side: its client reconnects and resumes, or polls. */
export function endStream(streams: LiveStreams, stream: Stream): void {
  if (stream.closed) return;
  stream.closed = true;
  stream.sink.end();
  removeStream(streams, stream);
}

/** Writes events to a stream; a client that lets too much pile up is dropped. */
export function writeEvents(streams: LiveStreams, stream: Stream, events: Outgoing[]): void {
  if (stream.closed || events.length === 0) return;
  stream.sink.write(events.map(frame).join(''));
  stream.lastId = Math.max(stream.lastId, ...events.map((event) => event.id));
  if (stream.sink.backlog() > MAX_BACKLOG_BYTES) endStream(streams, stream);
}

/** Every open stream of this process. */
export function allStreams(streams: LiveStreams): Stream[] {
  return [...streams.byUser.values()].flatMap((set) => [...set]);
}

/**
 * A comment line on every stream each heartbeat (idle connections stay open through proxies), and
 * every few heartbeats the streams of signed-out or expired sessions end. Returns the stop.
 */
export function startHeartbeats(ctx: ServiceContext, streams: LiveStreams): () => void {
  let ticks = 0;
  const timer = setInterval(() => {
    for (const stream of allStreams(streams)) stream.sink.write(': ping\n\n');
    ticks += 1;
    if (ticks % SESSION_CHECK_EVERY === 0 && streams.byUser.size > 0) {
      endSignedOut(ctx, streams).catch((error: unknown) =>
        streams.log.warn({ err: error }, 'live stream session check failed'),
      );
    }
  }, ctx.config.liveHeartbeatMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** One query for every open stream's session. */
async function endSignedOut(ctx: ServiceContext, streams: LiveStreams): Promise<void> {
  const open = allStreams(streams);
  const live = await repo.liveSessionIds(ctx.db, [...new Set(open.map((stream) => stream.sessionId))]);
  for (const stream of open) if (!live.has(stream.sessionId)) endStream(streams, stream);
}
