import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LIVE_EVENTS_URL, MAX_STREAMS_PER_ADDRESS, MAX_STREAMS_PER_USER } from '../../../shared/live-events';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { apiDoc } from '../../http/openapi-words';
import { polledRoute } from '../../http/polled-route';
import { tooManyRequests } from '../../lib/app-error';
import { createLiveHub, type LiveHub } from './live-stream.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's live event streams (GET /api/events). */
    liveHub: LiveHub;
  }
}

/** The client reconnects this long after a stream ends (server restart, network change). */
const RETRY_MS = 3000;

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
      // The hooks' headers (security headers, a renewed session cookie) go out with the stream's own.
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) response.setHeader(name, value);
      // Connection: close: when the stream ends (shutdown, signed out) its socket goes too, instead of
      // idling as keep-alive after the server's close already swept idle connections.
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'close',
      });
      response.write(`retry: ${RETRY_MS}\n\n`);
      const socket = request.raw.socket;
      socket.setNoDelay(true);
      await hub.open({
        userId: user.id,
        sessionId: request.sessionId ?? '',
        ip: request.ip,
        lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
        sink: {
          write: (chunk) => {
            if (!response.writableEnded) response.write(chunk);
          },
          backlog: () => response.writableLength,
          // The socket goes with the stream: nothing else is ever sent on it.
          end: () => {
            if (response.writableEnded) socket.destroy();
            else response.end(() => socket.destroy());
          },
          onClose: (listener) => response.once('close', listener),
        },
      });
    },
  );
};
