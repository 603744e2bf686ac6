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
import { apiDoc, NOT_ADMIN } from '../../http/openapi-words';
import * as settings from './settings.service';

// Each save asks the provider (one outbound call): a few a minute is plenty for a person.
const keyCheckLimit = perUserRateLimit(20, '1 minute');

const actorOf = (user: { id: string; email: string }) => ({ label: `admin:${user.email}`, userId: user.id });

/** The installation's settings (issue 45): administrators only, browser session only. */
export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/settings',
    {
      config: {
        doc: apiDoc('Admin', {
          summary: 'The installation settings: which providers are connected, and how',
          description:
            'Each provider with where its settings come from (`environment` wins over `saved`), the end of the key in use (never the key) and the models it brings now.',
          errors: [NOT_ADMIN],
        }),
      },
      schema: { response: { 200: installationSettingsSchema } },
    },
    async () => settings.installationSettings(ctx),
  );

  app.put(
    '/api/admin/settings/providers',
    {
      schema: { body: providerKeysSchema, response: { 200: installationSettingsSchema } },
      config: {
        ...keyCheckLimit,
        doc: apiDoc('Admin', {
          summary: "Connect a video provider: its key is tried with the provider's harmless call, then saved encrypted",
          description:
            'Takes effect in every web and worker process at once, with no restart. A key the provider refuses, or a provider that cannot be reached, saves nothing.',
          requestExample: { provider: 'fal', apiKey: 'fal-0123abcd:4567ef' },
          errors: [
            NOT_ADMIN,
            {
              status: 409,
              code: 'set_by_environment',
              message:
                "fal.ai is set in this server's environment (FAL_KEY), which wins over this page. Change it there.",
            },
            {
              status: 422,
              code: 'provider_key_refused',
              message: 'fal.ai refused this: Invalid API key. Nothing was saved.',
            },
            {
              status: 502,
              code: 'provider_unreachable',
              message:
                'Could not check this with fal.ai (no answer within 10 seconds). Nothing was saved: try again in a moment.',
            },
          ],
        }),
      },
    },
    async (request) => settings.saveProviderKeys(ctx, actorOf(requireAdmin(request)), request.body),
  );

  app.put(
    '/api/admin/settings/payments',
    {
      schema: { body: stripeKeysSchema, response: { 200: installationSettingsSchema } },
      config: {
        ...keyCheckLimit,
        doc: apiDoc('Admin', {
          summary: "Turn card payments on with Stripe's keys: tried with a balance read, then saved encrypted",
          description:
            'The secret and publishable keys of one mode (test or live), and the webhook signing secret of the endpoint the answer names (`payments.webhookUrl`). Payments work at once in every process. STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, where set, win.',
          requestExample: {
            secretKey: 'sk_live_51Hx0123abcd',
            publishableKey: 'pk_live_51Hx0123abcd',
            webhookSecret: 'whsec_0123abcd',
          },
          errors: [
            NOT_ADMIN,
            {
              status: 409,
              code: 'set_by_environment',
              message:
                "Stripe is set in this server's environment (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY), which wins over this page. Change it there.",
            },
            {
              status: 422,
              code: 'provider_key_refused',
              message: 'Stripe refused this: Invalid API Key provided: sk_live_****1234. Nothing was saved.',
            },
            {
              status: 502,
              code: 'provider_unreachable',
              message:
                'Could not check this with Stripe (the connection failed). Nothing was saved: try again in a moment.',
            },
          ],
        }),
      },
    },
    async (request) => settings.saveStripeKeys(ctx, actorOf(requireAdmin(request)), request.body),
  );
  app.delete(
    '/api/admin/settings/payments',
    {
      config: {
        doc: apiDoc('Admin', {
          summary: "Forget Stripe's saved keys (payments are off again)",
          errors: [
            NOT_ADMIN,
            { status: 404, code: 'setting_not_found', message: 'No Stripe keys are saved.' },
            {
              status: 409,
              code: 'set_by_environment',
              message:
                "Stripe is set in this server's environment (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY), which wins over this page. Change it there.",
            },
          ],
        }),
      },
      schema: { response: { 200: installationSettingsSchema } },
    },
    async (request) => settings.removeStripeKeys(ctx, actorOf(requireAdmin(request))),
  );

  app.put(
    '/api/admin/settings/mail',
    {
      schema: { body: mailSettingsSchema, response: { 200: installationSettingsSchema } },
      config: {
        ...keyCheckLimit,
        doc: apiDoc('Admin', {
          summary:
            'Set up mail: the SMTP server is asked whether it takes the login (nothing is sent), then saved encrypted',
          description:
            'Password resets, email verification and notifications go through it at once, in every process. SMTP_URL, where set, wins.',
          requestExample: {
            smtpUrl: 'smtps://user:password@mail.example.com:465',
            from: 'Reelsmith <no-reply@example.com>',
          },
          errors: [
            NOT_ADMIN,
            {
              status: 409,
              code: 'set_by_environment',
              message:
                "Mail is set in this server's environment (SMTP_URL), which wins over this page. Change it there.",
            },
            {
              status: 422,
              code: 'provider_key_refused',
              message:
                'The mail server refused this: 535 Invalid login: username and password not accepted. Nothing was saved.',
            },
            {
              status: 502,
              code: 'provider_unreachable',
              message:
                'Could not reach the mail server (connect ECONNREFUSED 127.0.0.1:9). Nothing was saved: check the address and try again.',
            },
          ],
        }),
      },
    },
    async (request) => settings.saveMailSettings(ctx, actorOf(requireAdmin(request)), request.body),
  );
  app.delete(
    '/api/admin/settings/mail',
    {
      config: {
        doc: apiDoc('Admin', {
          summary: 'Forget the saved mail server (mail stops, as without SMTP_URL)',
          errors: [
            NOT_ADMIN,
            { status: 404, code: 'setting_not_found', message: 'No mail server is saved.' },
            {
              status: 409,
              code: 'set_by_environment',
              message:
                "Mail is set in this server's environment (SMTP_URL), which wins over this page. Change it there.",
            },
          ],
        }),
      },
      schema: { response: { 200: installationSettingsSchema } },
    },
    async (request) => settings.removeMailSettings(ctx, actorOf(requireAdmin(request))),
  );

  app.put(
    '/api/admin/settings/contact',
    {
      config: {
        doc: apiDoc('Admin', {
          summary: 'Say who runs this server (an email or web address; null forgets it)',
          description:
            'Shown where people need someone to ask: sign-in without mail, buying credits without payments. OPERATOR_CONTACT, where set, wins.',
          requestExample: { contact: 'owner@example.com' },
          errors: [
            NOT_ADMIN,
            {
              status: 409,
              code: 'set_by_environment',
              message:
                "The contact is set in this server's environment (OPERATOR_CONTACT), which wins over this page. Change it there.",
            },
          ],
        }),
      },
      schema: { body: operatorContactBodySchema, response: { 200: installationSettingsSchema } },
    },
    async (request) => settings.saveOperatorContact(ctx, actorOf(requireAdmin(request)), request.body),
  );

  app.put(
    '/api/admin/settings/rules',
    {
      config: {
        doc: apiDoc('Admin', {
          summary:
            'Set the installation rules: how long videos are kept, who may keep one, the sign-up grant, whether new accounts are taken, the registration challenge',
          description:
            'Replaces the saved rules: a rule left out goes back to its default. Takes effect in every process at once; a video already made keeps its expiry. A rule whose environment variable is set cannot be sent.',
          requestExample: {
            videoHours: 72,
            keepFor: ['subscribers'],
            signupCreditsHundredths: 100,
            registrationOpen: true,
            registrationChallenge: true,
          },
          errors: [
            NOT_ADMIN,
            {
              status: 409,
              code: 'set_by_environment',
              message:
                "This server's environment sets VIDEO_RETENTION_HOURS, which wins over this page. Change it there, or leave it out.",
            },
          ],
        }),
      },
      schema: { body: rulesSettingsSchema, response: { 200: installationSettingsSchema } },
    },
    async (request) => settings.saveRules(ctx, actorOf(requireAdmin(request)), request.body),
  );

  app.delete(
    '/api/admin/settings/providers/:provider',
    {
      config: {
        doc: apiDoc('Admin', {
          summary: "Forget a provider's saved key (its models stop being offered)",
          errors: [
            NOT_ADMIN,
            { status: 404, code: 'setting_not_found', message: 'No fal.ai keys are saved.' },
            {
              status: 409,
              code: 'set_by_environment',
              message:
                "fal.ai is set in this server's environment (FAL_KEY), which wins over this page. Change it there.",
            },
          ],
        }),
      },
      schema: {
        params: z.object({ provider: providerIdSchema }),
        response: { 200: installationSettingsSchema },
      },
    },
    async (request) => settings.removeProviderKeys(ctx, actorOf(requireAdmin(request)), request.params.provider),
  );
};
