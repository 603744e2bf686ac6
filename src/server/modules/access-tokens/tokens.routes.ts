import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdTokenSchema,
  createTokenSchema,
  MAX_TOKENS_PER_USER,
  tokenIdParamsSchema,
  tokenListSchema,
} from '../../../shared/api-tokens';
import { messageSchema } from '../../../shared/auth';
import type { ServiceContext } from '../../context';
import { requireSessionUser } from '../../http/guards';
import { apiDoc } from '../../http/openapi-words';
import * as tokens from './tokens.service';

/**
 * The account page's personal access tokens. Only a cookie session manages them: no route here
 * names a `tokenScope`, so a bearer token gets 403 (and requireSessionUser says so again).
 */
export const tokensRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/account/tokens',
    {
      config: {
        rateLimit: { max: 30, timeWindow: '1 minute' },
        doc: apiDoc('Access tokens', {
          summary: 'Create a personal access token',
          description: 'The answer is the only time the token is shown. Session only: a token cannot create tokens.',
          requestExample: {
            name: 'render script',
            scopes: ['uploads:write', 'videos:write', 'videos:read'],
            expiresAt: null,
          },
          example: {
            id: 'a4e1c9d2-6b3f-4f8a-9e2d-7c5b1a3f8e60',
            token: 'rs_2Nf8kQ…',
            name: 'render script',
            scopes: ['uploads:write', 'videos:write', 'videos:read'],
            expiresAt: null,
            createdAt: '2026-11-25T10:00:00.000Z',
          },
          errors: [
            { status: 400, code: 'invalid_expiry', message: 'The expiry date must be in the future.' },
            {
              status: 409,
              code: 'too_many_tokens',
              message: `You already have ${MAX_TOKENS_PER_USER} access tokens. Revoke one you no longer use first.`,
            },
          ],
        }),
      },
      schema: { body: createTokenSchema, response: { 201: createdTokenSchema } },
    },
    async (request, reply) => {
      const user = requireSessionUser(request);
      const created = await tokens.createToken(ctx, user.id, request.body);
      request.log.info({ tokenId: created.id, scopes: created.scopes }, 'access token created');
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/api/account/tokens',
    {
      config: { doc: apiDoc('Access tokens', { summary: 'List your access tokens (never their secrets)' }) },
      schema: { response: { 200: tokenListSchema } },
    },
    async (request) => ({ tokens: await tokens.listTokens(ctx, requireSessionUser(request).id) }),
  );

  app.delete(
    '/api/account/tokens/:id',
    {
      config: {
        doc: apiDoc('Access tokens', {
          summary: 'Revoke an access token',
          example: { message: 'The access token was revoked.' },
          errors: [
            {
              status: 404,
              code: 'token_not_found',
              message: 'This access token was not found. It may have been revoked already.',
            },
          ],
        }),
      },
      schema: { params: tokenIdParamsSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      await tokens.revokeToken(ctx, requireSessionUser(request).id, request.params.id);
      return { message: 'The access token was revoked.' };
    },
  );
};
