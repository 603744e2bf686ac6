import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailNotificationsBodySchema,
  notificationSettingsSchema,
  presenceBodySchema,
  pushEndpointBodySchema,
  pushSubscriptionBodySchema,
} from '../../../shared/notifications';
import type { ServiceContext } from '../../context';
import { requireUser } from '../../http/guards';
import { apiDoc } from '../../http/openapi-words';
import * as notifications from './notifications.service';
import { vapidKeys } from './push-keys';

/** Being told when a video is ready or failed: the account page's choices, browsers' subscriptions, presence. */
export const notificationsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  // The VAPID pair is made (or read) at start, so the first browser to subscribe does not wait for it.
  await vapidKeys(ctx);
  app.addHook('onClose', async () => notifications.settleNotifications(ctx));

  app.get(
    '/api/notifications',
    {
      config: { doc: apiDoc('Notifications', { summary: 'Your notification settings' }) },
      schema: { response: { 200: notificationSettingsSchema } },
    },
    async (request) => notifications.getSettings(ctx, requireUser(request).id),
  );

  app.put(
    '/api/notifications/email',
    {
      config: {
        doc: apiDoc('Notifications', {
          summary: 'Turn email notifications on or off',
          errors: [
            {
              status: 409,
              code: 'mail_unavailable',
              message: 'This server does not send e-mail, so it cannot e-mail you.',
            },
          ],
        }),
      },
      schema: { body: emailNotificationsBodySchema, response: { 200: notificationSettingsSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      await notifications.setEmailChoice(ctx, user.id, request.body.enabled);
      return notifications.getSettings(ctx, user.id);
    },
  );

  app.post(
    '/api/notifications/push-subscriptions',
    {
      config: {
        rateLimit: { max: 20, timeWindow: '1 hour' },
        doc: apiDoc('Notifications', { summary: 'Add a browser push subscription' }),
      },
      schema: { body: pushSubscriptionBodySchema, response: { 201: notificationSettingsSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await notifications.addPushSubscription(ctx, user.id, request.body);
      return reply.status(201).send(await notifications.getSettings(ctx, user.id));
    },
  );

  app.delete(
    '/api/notifications/push-subscriptions',
    {
      config: { doc: apiDoc('Notifications', { summary: 'Remove a browser push subscription' }) },
      schema: { body: pushEndpointBodySchema, response: { 200: notificationSettingsSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      await notifications.removePushSubscription(ctx, user.id, request.body.endpoint);
      return notifications.getSettings(ctx, user.id);
    },
  );

  app.post(
    '/api/notifications/presence',
    {
      config: {
        doc: apiDoc('Notifications', {
          summary: 'Tell the server a tab is visible',
          responses: { 204: { description: 'Noted.' } },
        }),
      },
      schema: { body: presenceBodySchema },
    },
    async (request, reply) => {
      await notifications.savePresence(ctx, requireUser(request).id, request.body.visible);
      return reply.status(204).send();
    },
  );
};
