import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '../../../shared/auth';
import {
  createdWebhookSchema,
  createWebhookSchema,
  MAX_WEBHOOK_ENDPOINTS,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookIdParamsSchema,
} from '../../../shared/webhooks';
import type { ServiceContext } from '../../context';
import { perUserRateLimit, requireUser } from '../../http/guards';
import { apiDoc, type ErrorAnswer } from '../../http/openapi-words';
import * as webhooks from './webhooks.service';

/** Each user may send this many test events and redeliveries a minute (each is an outbound request now). */
const sendLimit = perUserRateLimit(20, '1 minute');

const WEBHOOK_NOT_FOUND: ErrorAnswer = {
  status: 404,
  code: 'webhook_not_found',
  message: 'Webhook endpoint not found',
};

/** The account page's webhook endpoints: add, list, delete, test, delivery log, redeliver (session only). */
export const webhooksRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/api/account/webhooks',
    {
      config: {
        ...perUserRateLimit(20, '1 minute'),
        doc: apiDoc('Webhooks', {
          summary: 'Add a webhook endpoint',
          description:
            'Events (`video.completed`, `video.failed`, `video.progress`, `credits.low`) are POSTed to the URL, signed per Standard Webhooks with the `whsec_...` secret this answer shows once.',
          requestExample: { url: 'https://example.com/hooks/reelsmith', events: ['video.completed', 'video.failed'] },
          errors: [
            {
              status: 422,
              code: 'webhook_url_refused',
              message: 'The webhook URL must start with https://.',
            },
            {
              status: 409,
              code: 'webhook_limit',
              message: `You can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one to add another.`,
            },
          ],
        }),
      },
      schema: { body: createWebhookSchema, response: { 201: createdWebhookSchema } },
    },
    async (request, reply) => {
      const created = await webhooks.createEndpoint(ctx, requireUser(request).id, request.body);
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/api/account/webhooks',
    {
      config: { doc: apiDoc('Webhooks', { summary: 'List your webhook endpoints' }) },
      schema: { response: { 200: z.array(webhookEndpointSchema) } },
    },
    async (request) => webhooks.listEndpoints(ctx, requireUser(request).id),
  );

  app.delete(
    '/api/account/webhooks/:id',
    {
      config: {
        doc: apiDoc('Webhooks', {
          summary: 'Delete a webhook endpoint',
          example: { message: 'The webhook endpoint was deleted.' },
          errors: [WEBHOOK_NOT_FOUND],
        }),
      },
      schema: { params: webhookIdParamsSchema, response: { 200: messageSchema } },
    },
    async (request) => {
      await webhooks.deleteEndpoint(ctx, requireUser(request).id, request.params.id);
      return { message: 'The webhook endpoint was deleted.' };
    },
  );

  app.post(
    '/api/account/webhooks/:id/test',
    {
      config: {
        ...sendLimit,
        doc: apiDoc('Webhooks', {
          summary: 'Send a test event to an endpoint',
          errors: [WEBHOOK_NOT_FOUND],
        }),
      },
      schema: { params: webhookIdParamsSchema, response: { 200: webhookDeliverySchema } },
    },
    async (request) => webhooks.sendTestEvent(ctx, requireUser(request).id, request.params.id),
  );

  app.get(
    '/api/account/webhooks/:id/deliveries',
    {
      config: {
        doc: apiDoc('Webhooks', {
          summary: 'An endpoint’s delivery log',
          errors: [WEBHOOK_NOT_FOUND],
        }),
      },
      schema: { params: webhookIdParamsSchema, response: { 200: z.array(webhookDeliverySchema) } },
    },
    async (request) => webhooks.listDeliveries(ctx, requireUser(request).id, request.params.id),
  );

  app.post(
    '/api/account/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: {
        ...sendLimit,
        doc: apiDoc('Webhooks', {
          summary: 'Send a delivery again',
          errors: [
            WEBHOOK_NOT_FOUND,
            { status: 404, code: 'webhook_delivery_not_found', message: 'Delivery not found' },
          ],
        }),
      },
      schema: { params: webhookDeliveryParamsSchema, response: { 200: webhookDeliverySchema } },
    },
    async (request) => webhooks.redeliver(ctx, requireUser(request).id, request.params.id, request.params.deliveryId),
  );
};
