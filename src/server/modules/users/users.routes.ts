import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userStatusSchema } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import { answerNotModified, trustedSerializer } from '../../http/etag';
import { requireUser } from '../../http/guards';
import { apiDoc } from '../../http/openapi-words';
import { polledRoute } from '../../http/polled-route';
import { presentUserStatus } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app) => {
  app.get(
    '/api/user/status',
    {
      config: {
        tokenScope: 'account:read',
        doc: apiDoc('Account', {
          summary: 'Your plan, subscription and credits',
          operationId: 'getStatus',
          etag: true,
        }),
      },
      schema: { response: { 200: userStatusSchema } },
      serializerCompiler: trustedSerializer,
      ...polledRoute,
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Everything the answer says is on the session's user row: the tag is those three values.
      if (answerNotModified(request, reply, `"s-${user.creditsHundredths}-${user.subscriptionStatus}-${user.plan}"`))
        return reply;
      return presentUserStatus(user);
    },
  );
};
