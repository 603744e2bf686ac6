import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../shared/auth';
import {
  createdWebhookSchema,
  createWebhookSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookIdParamsSchema,
} from '../../../shared/webhooks';
import type { ServiceContext } from '../../context';
import { perUserRateLimit, requireUser } from '../../http/guards';
import * as webhooks from './webhooks.service';

/** Each user may send this many test events and redeliveries a minute (each is an outbound request now). */
const sendLimit = perUserRateLimit(20, '1 minute');

/** The account page's webhook endpoints: add, list, delete, test, delivery log, redeliver (session only). */
export const webhooksRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/account/webhooks',
    {
      config: perUserRateLimit(20, '1 minute'),
      schema: { body: createWebhookSchema, response: { 201: createdWebhookSchema } },
    },
    async (request, reply) => {
      const created = await webhooks.createEndpoint(ctx, requireUser(request).id, request.body);
      return reply.status(201).send(created);
    },
  );

  app.get('/api/account/webhooks', { schema: { response: { 200: z.array(webhookEndpointSchema) } } }, async (request) =>
    webhooks.listEndpoints(ctx, requireUser(request).id),
  );

  app.delete(
    '/api/account/webhooks/:id',
    { schema: { params: webhookIdParamsSchema, response: { 200: messageSchema } } },
    async (request) => {
      await webhooks.deleteEndpoint(ctx, requireUser(request).id, request.params.id);
      return { message: 'The webhook endpoint was deleted.' };
    },
  );

  app.post(
    '/api/account/webhooks/:id/test',
    { config: sendLimit, schema: { params: webhookIdParamsSchema, response: { 200: webhookDeliverySchema } } },
    async (request) => webhooks.sendTestEvent(ctx, requireUser(request).id, request.params.id),
  );

  app.get(
    '/api/account/webhooks/:id/deliveries',
    { schema: { params: webhookIdParamsSchema, response: { 200: z.array(webhookDeliverySchema) } } },
    async (request) => webhooks.listDeliveries(ctx, requireUser(request).id, request.params.id),
  );

  app.post(
    '/api/account/webhooks/:id/deliveries/:deliveryId/redeliver',
    { config: sendLimit, schema: { params: webhookDeliveryParamsSchema, response: { 200: webhookDeliverySchema } } },
    async (request) => webhooks.redeliver(ctx, requireUser(request).id, request.params.id, request.params.deliveryId),
  );
};
