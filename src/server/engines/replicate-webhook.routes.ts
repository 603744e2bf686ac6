import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { AppError } from '../lib/app-error';

/**
 * Replicate's inbound webhook (`POST /api/webhooks/replicate`), beside the engine that asked for it:
 * the body is handed, as the exact bytes Replicate signed, to `ctx.webhooks.replicate`
 * (replicate-engine.ts), which checks the signature and wakes the waiting job.
 */
export const replicateWebhookRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  // Replicate signs the exact bytes it sent: this route keeps the raw body instead of parsing JSON.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    webhook.post(
      '/api/webhooks/replicate',
      {
        config: {
          allowCrossSite: true,
          rateLimit: { max: 600, timeWindow: '1 minute' },
          // Its words in the API reference, written out: engines/ sits below http/ (no apiDoc import),
          // and the config's type (FastifyContextConfig['doc']) checks them all the same.
          doc: {
            tag: 'Provider callbacks',
            summary: 'Replicate’s prediction updates',
            public: true,
            requestContent: {
              'application/json': { schema: { type: 'object' }, example: { id: 'p_123', status: 'succeeded' } },
            },
            errors: [{ status: 401, code: 'invalid_signature', message: 'This webhook is not signed by Replicate.' }],
          },
        },
        schema: { response: { 200: z.object({ received: z.literal(true) }) } },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const replicate = ctx.webhooks.replicate;
        if (!replicate || !(await replicate.deliver(request.headers, raw))) {
          throw new AppError(401, 'invalid_signature', 'This webhook is not signed by Replicate.');
        }
        return { received: true as const };
      },
    );
  });
};
