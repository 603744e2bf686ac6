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
  PAYMENTS_DISABLED,
  paymentsConfigSchema,
  paymentsDisabledMessage,
} from '../../../shared/money/payments';
import {
  billingPortalResponseSchema,
  receiptListSchema,
  subscriptionDetailsSchema,
} from '../../../shared/money/billing-account';
import type { ServiceContext } from '../../context';
import { perUserRateLimit, requireUser } from '../../http/guards';
import { apiDoc, type ErrorAnswer } from '../../http/openapi-words';
import { unauthorized } from '../../lib/app-error';
import { requireStripe } from '../../stripe/stripe-client';
import * as checkout from './stripe/checkout.service';
import { startSubscription } from './stripe/subscriptions.service';
import {
  cancelSubscription,
  createBillingPortalSession,
  subscriptionDetails,
} from './stripe/subscription-manage.service';
import { listReceipts } from './receipts.service';
import { handleWebhookEvent, verifyWebhookEvent } from './stripe/webhooks.service';

/** Per user: each call creates objects at Stripe. */
const perUserLimit = perUserRateLimit(20, '1 minute');

const PAYMENTS_OFF: ErrorAnswer = { status: 503, code: PAYMENTS_DISABLED, message: paymentsDisabledMessage(undefined) };
/** A payment Stripe has not (yet) taken: the browser confirms again once it has. */
const NOT_COMPLETED: ErrorAnswer = {
  status: 409,
  code: 'payment_not_completed',
  message: 'The payment has not completed (status: processing).',
};
const NOT_YOURS: ErrorAnswer = {
  status: 403,
  code: 'payment_not_yours',
  message: 'This payment belongs to another account.',
};

export const paymentsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  /** The caller (the spec's 401 sentence for credit purchases), or 503 on a server without keys. */
  function buyer(request: FastifyRequest, signedOutMessage?: string) {
    if (!request.user) throw unauthorized(signedOutMessage);
    requireStripe(ctx);
    return requireUser(request);
  }
  const creditBuyer = (request: FastifyRequest) => buyer(request, 'Please log in to purchase credits');

  app.get(
    '/api/payments/config',
    {
      config: { doc: apiDoc('Payments', { summary: 'The payment options this server offers', public: true }) },
      schema: { response: { 200: paymentsConfigSchema } },
    },
    async () => ({
      enabled: Boolean(ctx.stripe),
      publishableKey: ctx.config.stripe?.publishableKey ?? null,
      operatorContact: ctx.config.operatorContact ?? null,
    }),
  );

  app.post(
    '/api/credits/checkout',
    {
      config: {
        ...perUserLimit,
        doc: apiDoc('Credits', { summary: 'Start buying credits (Stripe Checkout)', errors: [PAYMENTS_OFF] }),
      },
      schema: { body: creditsCheckoutRequestSchema, response: { 200: creditsCheckoutResponseSchema } },
    },
    async (request) => {
      const user = creditBuyer(request);
      return { checkoutUrl: await checkout.createCreditsCheckout(ctx, user, request.body.creditsAmount) };
    },
  );

  app.post(
    '/api/credits/checkout-success',
    {
      config: {
        doc: apiDoc('Credits', {
          summary: 'Confirm a finished Checkout',
          errors: [PAYMENTS_OFF, NOT_COMPLETED, NOT_YOURS],
        }),
      },
      schema: { body: checkoutSuccessRequestSchema, response: { 200: checkoutSuccessResponseSchema } },
    },
    async (request) => {
      return checkout.confirmCreditsCheckout(ctx, creditBuyer(request), request.body.sessionId);
    },
  );

  app.post(
    '/api/credits/payment-intent',
    {
      config: {
        ...perUserLimit,
        doc: apiDoc('Credits', { summary: 'Start buying credits (payment form)', errors: [PAYMENTS_OFF] }),
      },
      schema: { body: creditsPaymentIntentRequestSchema, response: { 200: creditsPaymentIntentResponseSchema } },
    },
    async (request) => {
      return checkout.createCreditsPaymentIntent(ctx, creditBuyer(request), request.body.credits);
    },
  );

  app.post(
    '/api/credits/fulfill',
    {
      config: {
        doc: apiDoc('Credits', {
          summary: 'Confirm a credit payment',
          errors: [
            PAYMENTS_OFF,
            NOT_COMPLETED,
            NOT_YOURS,
            { status: 422, code: 'amount_mismatch', message: 'The amount paid does not match the credits requested.' },
          ],
        }),
      },
      schema: { body: fulfillRequestSchema, response: { 200: fulfillResponseSchema } },
    },
    async (request) => {
      return checkout.fulfilCreditsPayment(
        ctx,
        creditBuyer(request),
        request.body.paymentIntentId,
        request.body.credits,
      );
    },
  );

  app.post(
    '/api/payments/start-subscription',
    {
      config: {
        ...perUserLimit,
        doc: apiDoc('Payments', {
          summary: 'Start a subscription',
          errors: [
            PAYMENTS_OFF,
            { status: 409, code: 'already_subscribed', message: 'You already have an active subscription.' },
          ],
        }),
      },
      schema: { response: { 200: clientSecretResponseSchema } },
    },
    async (request) => {
      return { clientSecret: await startSubscription(ctx, buyer(request)) };
    },
  );

  app.post(
    '/api/payments/extra-generations',
    {
      config: {
        ...perUserLimit,
        doc: apiDoc('Payments', { summary: 'Buy extra generations', errors: [PAYMENTS_OFF] }),
      },
      schema: { body: extraGenerationsRequestSchema, response: { 200: clientSecretResponseSchema } },
    },
    async (request) => {
      return { clientSecret: await checkout.createPackPaymentIntent(ctx, buyer(request), request.body.package) };
    },
  );

  app.post(
    '/api/payments/confirm',
    {
      config: {
        doc: apiDoc('Payments', { summary: 'Confirm a payment', errors: [PAYMENTS_OFF, NOT_COMPLETED, NOT_YOURS] }),
      },
      schema: { body: confirmPaymentRequestSchema.optional(), response: { 200: generationStatusSchema } },
    },
    async (request) => {
      return checkout.confirmPayment(ctx, buyer(request), request.body?.paymentIntentId);
    },
  );

  app.get(
    '/api/payments/subscription',
    {
      config: { doc: apiDoc('Payments', { summary: 'Your subscription' }) },
      schema: { response: { 200: subscriptionDetailsSchema } },
    },
    async (request) => {
      return subscriptionDetails(ctx, requireUser(request));
    },
  );

  app.post(
    '/api/payments/cancel-subscription',
    {
      config: {
        ...perUserLimit,
        doc: apiDoc('Payments', {
          summary: 'Cancel your subscription',
          errors: [
            PAYMENTS_OFF,
            { status: 409, code: 'no_subscription', message: 'You have no subscription to cancel.' },
          ],
        }),
      },
      schema: { response: { 200: generationStatusSchema } },
    },
    async (request) => {
      return cancelSubscription(ctx, buyer(request));
    },
  );

  app.post(
    '/api/payments/billing-portal',
    {
      config: {
        ...perUserLimit,
        doc: apiDoc('Payments', {
          summary: 'Open the billing portal',
          errors: [
            PAYMENTS_OFF,
            {
              status: 409,
              code: 'no_billing_account',
              message: 'You have no billing account yet: it is made with your first subscription.',
            },
          ],
        }),
      },
      schema: { response: { 200: billingPortalResponseSchema } },
    },
    async (request) => {
      return { url: await createBillingPortalSession(ctx, buyer(request)) };
    },
  );

  app.get(
    '/api/payments/receipts',
    {
      config: { doc: apiDoc('Payments', { summary: 'Your receipts' }) },
      schema: { response: { 200: receiptListSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { receipts: await listReceipts(ctx, requireUser(request)) };
    },
  );

  // Stripe signs the exact bytes it sent: this route keeps the raw body instead of parsing JSON.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    webhook.post(
      '/api/stripe/webhook',
      {
        config: {
          allowCrossSite: true,
          doc: apiDoc('Provider callbacks', {
            summary: 'Stripe’s payment events',
            public: true,
            requestContent: {
              'application/json': { schema: { type: 'object' }, example: { type: 'checkout.session.completed' } },
            },
            errors: [
              { status: 400, code: 'bad_signature', message: 'The webhook signature is not valid.' },
              PAYMENTS_OFF,
              { status: 503, code: 'webhook_not_configured', message: 'The webhook signing secret is not configured.' },
            ],
          }),
        },
        schema: { response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }) } },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        const event = verifyWebhookEvent(ctx, raw, Array.isArray(signature) ? signature[0] : signature);
        const outcome = await handleWebhookEvent(ctx, event);
        if (outcome.ignored)
          request.log.warn(
            { eventId: event.id, type: event.type, reason: outcome.ignored },
            'stripe event not fulfilled',
          );
        return { received: true as const, duplicate: !outcome.handled };
      },
    );
  });
};
