import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { liveBalanceSchema } from '../../../shared/live-events';
import type { ServiceContext } from '../../context';
import { answerNotModified, liveStateTag, trustedSerializer } from '../../http/etag';
import { requireUser } from '../../http/guards';
import { apiDoc } from '../../http/openapi-words';
import { polledRoute } from '../../http/polled-route';
import { presentBalance } from './balance.service';

/** What a user has to spend (its parts for the specification's client: modules/spec-client). */
export const creditsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  // The one balance the client reads: credits, unlimited flag, plan, subscription, daily and extra
  // generations, the same answer as the live 'balance' event.
  app.get(
    '/api/user/balance',
    {
      config: {
        tokenScope: 'account:read',
        doc: apiDoc('Account', {
          summary: 'Your balance',
          operationId: 'getBalance',
          etag: true,
          description:
            'Credits, plan, subscription and daily and extra generations: the same answer as the live `balance` event.',
        }),
      },
      schema: { response: { 200: liveBalanceSchema } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Daily and pack generations move the live version, and the minute in the tag covers the 3am
      // reset; the row's own figures are in it too, so it is never older than /api/user/status's.
      const tag = liveStateTag(`b-${user.creditsHundredths}-${user.subscriptionStatus}-${user.plan}`, user, ctx.now());
      if (answerNotModified(request, reply, tag)) return reply;
      return presentBalance(ctx, user);
    },
  );
};
