import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdTokenSchema,
  createTokenSchema,
  tokenIdParamsSchema,
  tokenListSchema,
} from '../../../shared/api-tokens';
import { messageSchema } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import { requireSessionUser } from '../../http/guards';
import * as tokens from './tokens.service';

/**
 * The account page's personal access tokens. Only a cookie session manages them: no route here
 * names a `tokenScope`, so a bearer token gets 403 (and requireSessionUser says so again).
 */
export const tokensRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/account/tokens',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { body: createTokenSchema, response: { 201: createdTokenSchema } },
    },
    async (request, reply) => {
      const user = requireSessionUser(request);
      const created = await tokens.createToken(ctx, user.id, request.body);
      request.log.info({ tokenId: created.id, scopes: created.scopes }, 'access token created');
      return reply.status(201).send(created);
    },
  );

  app.get('/api/account/tokens', { schema: { response: { 200: tokenListSchema } } }, async (request) => ({
    tokens: await tokens.listTokens(ctx, requireSessionUser(request).id),
  }));

  app.delete(
    '/api/account/tokens/:id',
    { schema: { params: tokenIdParamsSchema, response: { 200: messageSchema } } },
    async (request) => {
      await tokens.revokeToken(ctx, requireSessionUser(request).id, request.params.id);
      return { message: 'The access token was revoked.' };
    },
  );
};
