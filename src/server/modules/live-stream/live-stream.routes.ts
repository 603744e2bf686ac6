import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LIVE_EVENTS_URL, MAX_STREAMS_PER_ADDRESS, MAX_STREAMS_PER_USER } from '../../../shared/live-events';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { apiDoc } from '../../http/openapi-words';
import { polledRoute } from '../../http/polled-route';
import { tooManyRequests } from '../../lib/app-error';
import { createLiveHub, type LiveHub } from './live-stream.service';
import type { StreamSink } from './streams';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's live event streams (GET /api/events). */
    liveHub: LiveHub;
  }
}

/** The client reconnects this long after a stream ends (server restart, network change). */
const RETRY_MS = 3000;

/**
 * Takes a hijacked stream out of Fastify's request lifecycle. Fastify keeps a `finish` and an
 * `error` listener on every response (`onResFinished`, fastify/lib/reply.js) that holds the request
 * and reply, with their session and user rows and child logger, until the response ends, and then
 * runs the onResponse hooks. A stream is not a request: it lasts hours, so it would be logged as a
 * slow request and skew the request-duration histogram (request-log.ts, request-metrics.ts), and
 * holding those objects for each of thousands of open streams is most of their memory (bench/streams.ts).
 * Its own gauge counts the open streams instead. live-stream.routes.test.ts checks that an ended
 * stream leaves no request behind in the histogram, so a Fastify that renames its listener fails there.
 */
function leaveRequestLifecycle(response: ServerResponse): void {
  for (const event of ['finish', 'error'] as const)
    for (const listener of response.listeners(event))
      if (listener.name === 'onResFinished') response.removeListener(event, listener as (...args: unknown[]) => void);
}

/** A stream's response as the hub writes to it: one small object per stream, its methods shared. */
class ResponseSink implements StreamSink {
  constructor(
    private readonly response: ServerResponse,
    private readonly socket: Socket,
  ) {}

  write(chunk: string): void {
    if (!this.response.writableEnded) this.response.write(chunk);
  }

  backlog(): number {
    return this.response.writableLength;
  }

  /** The socket goes with the stream: nothing else is ever sent on it. */
  end(): void {
    if (this.response.writableEnded) this.socket.destroy();
    else this.response.end(() => this.socket.destroy());
  }

  onClose(listener: () => void): void {
    this.response.once('close', listener);
  }
}

function definedHeaders(headers: Record<string, OutgoingHttpHeader | undefined>): OutgoingHttpHeaders {
  const defined: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) defined[name] = value;
  return defined;
}

/**
 * GET /api/events: the signed-in user's Server-Sent Events stream (decision 011), written by hand:
 * no compression, no proxy buffering, a comment line as heartbeat. A server shutdown ends every
 * stream before the server stops listening, so open streams never hold it up.
 */
export const liveStreamRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const hub = createLiveHub(ctx, app.log);
  app.decorate('liveHub', hub);
  ctx.metrics.countEventStreams(() => hub.size());
  app.addHook('preClose', () => hub.close());

  app.get(
    LIVE_EVENTS_URL,
    {
      ...polledRoute,
      config: {
        doc: apiDoc('Live events', {
          summary: 'Live updates (Server-Sent Events)',
          description:
            'The website’s stream of changes to your videos and balance. Programs should use webhooks instead.',
          responses: {
            200: {
              description: 'An endless `text/event-stream`; `Last-Event-ID` resumes it.',
              content: {
                'text/event-stream': {
                  schema: { type: 'string' },
                  example:
                    'retry: 3000\n\nid: 42\nevent: generation\ndata: {"id":"6f1c0b7e-…","status":"processing"}\n\n',
                },
              },
            },
          },
          errors: [
            {
              status: 429,
              code: 'too_many_streams',
              message: 'At most 5 tabs get live updates at once; this one refreshes by itself instead.',
            },
          ],
        }),
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (hub.streamsOf(user.id) >= MAX_STREAMS_PER_USER) {
        throw tooManyRequests(
          `At most ${MAX_STREAMS_PER_USER} tabs get live updates at once; this one refreshes by itself instead.`,
          60,
          'too_many_streams',
        );
      }
      if (hub.streamsFrom(request.ip) >= MAX_STREAMS_PER_ADDRESS) {
        throw tooManyRequests(
          `At most ${MAX_STREAMS_PER_ADDRESS} tabs from one network get live updates at once; this one refreshes by itself instead.`,
          60,
          'too_many_streams',
        );
      }
      const lastEventId = request.headers['last-event-id'];
      reply.hijack();
      const response = reply.raw;
      leaveRequestLifecycle(response);
      // The hooks' headers (security headers, a renewed session cookie) go out with the stream's own,
      // in one writeHead: nothing is kept per stream but the head Node itself keeps.
      // Connection: close: when the stream ends (shutdown, signed out) its socket goes too, instead of
      // idling as keep-alive after the server's close already swept idle connections.
      response.writeHead(200, {
        ...definedHeaders(reply.getHeaders()),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'close',
      });
      response.write(`retry: ${RETRY_MS}\n\n`);
      const socket = request.raw.socket;
      socket.setNoDelay(true);
      // No idle timer on a stream's socket: its heartbeats are its activity, and a client that takes
      // nothing is dropped by its backlog (streams.ts).
      socket.setTimeout(0);
      await hub.open({
        userId: user.id,
        sessionId: request.sessionId ?? '',
        ip: request.ip,
        lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
        sink: new ResponseSink(response, socket),
      });
    },
  );
};
