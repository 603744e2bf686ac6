import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generationStatusSchema } from '../../../shared/money/plans';
import {
  checkoutSuccessRequestSchema,
  checkoutSuccessResponseSchema,
  clientSecretResponseSchema,
  confirmPaymentRequestSchema,
  creditsCheckoutRequestSchema,
  creditsCheckoutResponseSchema,
  creditsPaymentIntentRequestSchema,
  creditsPaymentIntentResponseSchema,
  extraGenerationsRequestSchema,
  fulfillRequestSchema,
  fulfillResponseSchema,
  paymentsConfigSchema,
} from '../../../shared/money/payments';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { requireUser } from '../../http/guards';
import { unauthorized } from '../../lib/app-error';
import { createPayments, type Payments } from './payments.service';
import { createStripeClient, paymentsDisabled, type StripeClient } from './stripe-gateway';

export interface PaymentsRoutesDeps {
  db: Db;
  config: Config;
  now: () => Date;
  /** Defaults to the SDK configured by STRIPE_*; absent without keys. */
  stripe?: StripeClient;
}

/** Per user: each call creates objects at Stripe. */
const perUserLimit = {
  rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => request.user?.id ?? request.ip },
};

export const paymentsRoutes: FastifyPluginAsyncZod<{ deps: PaymentsRoutesDeps }> = async (app, { deps }) => {
  const { config } = deps;
  const stripe = config.stripe ? (deps.stripe ?? createStripeClient(config.stripe)) : undefined;
  const payments: Payments | undefined = stripe
    ? createPayments({ db: deps.db, stripe, publicUrl: config.publicUrl, webhookSecret: config.stripe?.webhookSecret, now: deps.now })
    : undefined;

  /** The caller (the spec's 401 sentence for credit purchases) and the payment service, or 503 without keys. */
  function buyer(request: FastifyRequest, signedOutMessage?: string) {
    if (!request.user) throw unauthorized(signedOutMessage);
    if (!payments) throw paymentsDisabled();
    return { user: requireUser(request), payments };
  }
  const creditBuyer = (request: FastifyRequest) => buyer(request, 'Please log in to purchase credits');

  app.get('/api/payments/config', { schema: { response: { 200: paymentsConfigSchema } } }, async () => ({
    enabled: Boolean(payments),
    publishableKey: config.stripe?.publishableKey ?? null,
  }));

  app.post(
    '/api/credits/checkout',
    { config: perUserLimit, schema: { body: creditsCheckoutRequestSchema, response: { 200: creditsCheckoutResponseSchema } } },
    async (request) => {
      const { user, payments } = creditBuyer(request);
      return { checkoutUrl: await payments.createCheckout(user, request.body.creditsAmount) };
    },
  );

  app.post(
    '/api/credits/checkout-success',
    { schema: { body: checkoutSuccessRequestSchema, response: { 200: checkoutSuccessResponseSchema } } },
    async (request) => {
      const { user, payments } = creditBuyer(request);
      return payments.confirmCheckout(user, request.body.sessionId);
    },
  );

  app.post(
    '/api/credits/payment-intent',
    { config: perUserLimit, schema: { body: creditsPaymentIntentRequestSchema, response: { 200: creditsPaymentIntentResponseSchema } } },
    async (request) => {
      const { user, payments } = creditBuyer(request);
      return payments.createCreditsIntent(user, request.body.credits);
    },
  );

  app.post('/api/credits/fulfill', { schema: { body: fulfillRequestSchema, response: { 200: fulfillResponseSchema } } }, async (request) => {
    const { user, payments } = creditBuyer(request);
    return payments.fulfilCredits(user, request.body.paymentIntentId, request.body.credits);
  });

  app.post(
    '/api/payments/start-subscription',
    { config: perUserLimit, schema: { response: { 200: clientSecretResponseSchema } } },
    async (request) => {
      const { user, payments } = buyer(request);
      return { clientSecret: await payments.startSubscription(user) };
    },
  );

  app.post(
    '/api/payments/extra-generations',
    { config: perUserLimit, schema: { body: extraGenerationsRequestSchema, response: { 200: clientSecretResponseSchema } } },
    async (request) => {
      const { user, payments } = buyer(request);
      return { clientSecret: await payments.createPackIntent(user, request.body.package) };
    },
  );

  app.post(
    '/api/payments/confirm',
    { schema: { body: confirmPaymentRequestSchema.optional(), response: { 200: generationStatusSchema } } },
    async (request) => {
      const { user, payments } = buyer(request);
      return payments.confirm(user, request.body?.paymentIntentId);
    },
  );

  // Stripe signs the exact bytes it sent: this route keeps the raw body instead of parsing JSON.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
    webhook.post(
      '/api/stripe/webhook',
      { config: { allowCrossSite: true }, schema: { response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }) } } },
      async (request) => {
        if (!payments) throw paymentsDisabled();
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        const event = payments.constructEvent(raw, Array.isArray(signature) ? signature[0] : signature);
        const outcome = await payments.handleEvent(event);
        if (outcome.ignored) request.log.warn({ eventId: event.id, type: event.type, reason: outcome.ignored }, 'stripe event not fulfilled');
        return { received: true as const, duplicate: !outcome.handled };
      },
    );
  });
};
