import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  installationSettingsSchema,
  mailSettingsSchema,
  operatorContactBodySchema,
  providerIdSchema,
  stripeKeysSchema,
  providerKeysSchema,
  rulesSettingsSchema,
} from '../../../shared/installation-settings';
import type { ServiceContext } from '../../context';
import { perUserRateLimit, requireAdmin } from '../../http/guards';
import * as settings from './settings.service';

// Each save asks the provider (one outbound call): a few a minute is plenty for a person.
const keyCheckLimit = perUserRateLimit(20, '1 minute');

const actorOf = (user: { id: string; email: string }) => ({ label: `admin:${user.email}`, userId: user.id });

/** The installation's settings (issue 45): administrators only, browser session only. */
export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get('/api/admin/settings', { schema: { response: { 200: installationSettingsSchema } } }, async () =>
    settings.installationSettings(ctx),
  );

  app.put(
    '/api/admin/settings/providers',
    {
      schema: { body: providerKeysSchema, response: { 200: installationSettingsSchema } },
      config: keyCheckLimit,
    },
    async (request) => settings.saveProviderKeys(ctx, actorOf(requireAdmin(request)), request.body),
  );

  app.put(
    '/api/admin/settings/payments',
    {
      schema: { body: stripeKeysSchema, response: { 200: installationSettingsSchema } },
      config: keyCheckLimit,
    },
    async (request) => settings.saveStripeKeys(ctx, actorOf(requireAdmin(request)), request.body),
  );
  app.delete(
    '/api/admin/settings/payments',
    { schema: { response: { 200: installationSettingsSchema } } },
    async (request) => settings.removeStripeKeys(ctx, actorOf(requireAdmin(request))),
  );

  app.put(
    '/api/admin/settings/mail',
    { schema: { body: mailSettingsSchema, response: { 200: installationSettingsSchema } }, config: keyCheckLimit },
    async (request) => settings.saveMailSettings(ctx, actorOf(requireAdmin(request)), request.body),
  );
  app.delete(
    '/api/admin/settings/mail',
    { schema: { response: { 200: installationSettingsSchema } } },
    async (request) => settings.removeMailSettings(ctx, actorOf(requireAdmin(request))),
  );

  app.put(
    '/api/admin/settings/contact',
    { schema: { body: operatorContactBodySchema, response: { 200: installationSettingsSchema } } },
    async (request) => settings.saveOperatorContact(ctx, actorOf(requireAdmin(request)), request.body),
  );

  app.put(
    '/api/admin/settings/rules',
    { schema: { body: rulesSettingsSchema, response: { 200: installationSettingsSchema } } },
    async (request) => settings.saveRules(ctx, actorOf(requireAdmin(request)), request.body),
  );

  app.delete(
    '/api/admin/settings/providers/:provider',
    {
      schema: {
        params: z.object({ provider: providerIdSchema }),
        response: { 200: installationSettingsSchema },
      },
    },
    async (request) => settings.removeProviderKeys(ctx, actorOf(requireAdmin(request)), request.params.provider),
  );
};
