import type { FastifyBaseLogger } from 'fastify';
import type { ServiceContext } from '../../context';
import type { StopListening } from '../../db/listen-notify';
import { subscribeLiveEvents } from '../../bus/subscribe';
import { handleNotifications, startStream } from './stream-updates';
import {
  addStream,
  allStreams,
  createLiveStreams,
  endStream,
  type LiveStreams,
  startHeartbeats,
  type Stream,
  type StreamSink,
} from './streams';

export interface LiveHub {
  /** Open streams of one user in this process. */
  streamsOf(userId: string): number;
  /** Open streams from one client address in this process. */
  streamsFrom(ip: string): number;
  /** All open streams in this process. */
  size(): number;
  /** Serves one stream until the client leaves or the hub closes. */
  open(stream: {
    userId: string;
    sessionId: string;
    ip: string;
    sink: StreamSink;
    lastEventId: string | undefined;
  }): Promise<void>;
  /** Ends every stream and stops listening (server shutdown). */
  close(): Promise<void>;
}

/**
 * The web process's side of live updates (decision 011): it subscribes to the live events bus
 * (one database connection per process), keeps the open streams by user (`live-streams.ts`), and
 * for each notification of a user with a stream here reads the current state once and writes it to
 * that user's streams only (`live-notifications.ts`).
 */
export function createLiveHub(ctx: ServiceContext, log: FastifyBaseLogger): LiveHub {
  const streams = createLiveStreams(log);
  const listening = listenWhileOpen(ctx, streams);
  let closed = false;
  return {
    streamsOf: (userId) => streams.byUser.get(userId)?.size ?? 0,
    streamsFrom: (ip) => streams.byAddress.get(ip) ?? 0,
    size: () => allStreams(streams).length,
    async open({ userId, sessionId, ip, sink, lastEventId }) {
      if (closed) return sink.end();
      const stream: Stream = { userId, sessionId, ip, sink, ready: false, closed: false, lastId: 0 };
      addStream(streams, stream);
      try {
        await listening.start();
      } catch (error) {
        // Without the database's notifications there is nothing to stream: the client polls instead.
        log.error({ err: error }, 'could not listen for live events');
        return endStream(streams, stream);
      }
      startStream(ctx, streams, stream, lastEventId && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : 0);
    },
    async close() {
      closed = true;
      for (const stream of allStreams(streams)) endStream(streams, stream);
      await listening.stop();
    },
  };
}

/** The subscription and the heartbeats: started by the first stream (again after a failed start), stopped with the hub. */
function listenWhileOpen(ctx: ServiceContext, streams: LiveStreams) {
  const handlers = handleNotifications(ctx, streams);
  let listening: Promise<StopListening> | null = null;
  let stopHeartbeats: (() => void) | null = null;
  return {
    start(): Promise<StopListening> {
      if (!listening) {
        const started = subscribeLiveEvents(ctx, handlers);
        listening = started;
        started.catch(() => {
          if (listening === started) listening = null;
        });
      }
      stopHeartbeats ??= startHeartbeats(ctx, streams);
      return listening;
    },
    async stop() {
      stopHeartbeats?.();
      const stop = listening;
      listening = null;
      if (stop) await (await stop.catch(() => null))?.();
    },
  };
}
