import { z } from 'zod';
import { singleLine } from './text';

/**
 * Outbound webhooks (issue 30): the events a user's endpoints can receive, and the account page's
 * calls. Bodies are signed per the Standard Webhooks specification
 * (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md).
 */
export const WEBHOOK_EVENT_TYPES = [
  'video.completed',
  'video.failed',
  'video.progress',
  'credits.low',
  'video.taken_down',
  'film.completed',
] as const;
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

/** What the account page says about each event. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'video.completed': 'A video is ready',
  'video.failed': 'A video failed',
  'video.progress': 'Progress while a video renders (many requests)',
  'credits.low': 'Credits fall below 1',
  'video.taken_down': 'A video was taken down after a report',
  'film.completed': 'A film of your videos is ready',
};

/** The test event's type (POST /api/account/webhooks/{id}/test); never subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Endpoints one user may have. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** POST /api/account/webhooks */
export const createWebhookSchema = z.strictObject({
  url: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(WEBHOOK_URL_MAX_LENGTH, `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`)
    .check(singleLine),
  events: z
    .array(webhookEventTypeSchema)
    .min(1, 'choose at least one event')
    .transform((events) => [...new Set(events)]),
});
export type CreateWebhook = z.infer<typeof createWebhookSchema>;

/** An endpoint as GET /api/account/webhooks lists it: its secret is shown only once, when it is made. */
export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The 201 answer to a create: the signing secret (`whsec_` + base64 of 32 random bytes), shown once. */
export const createdWebhookSchema = webhookEndpointSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookIdParamsSchema = z.object({ id: z.uuid({ error: 'is not a webhook id' }) });
export const webhookDeliveryParamsSchema = webhookIdParamsSchema.extend({
  deliveryId: z.uuid({ error: 'is not a delivery id' }),
});

export const webhookDeliveryStatusSchema = z.enum(['pending', 'delivering', 'succeeded', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatusSchema>;

/** One try of a delivery: what the receiver answered (or why it could not), and how long it took. */
export const webhookAttemptSchema = z.object({
  attempt: z.number().int(),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  at: z.string(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** One event sent to one endpoint (its webhook-id is `messageId`), with every attempt, newest first. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  messageId: z.string(),
  eventType: z.string(),
  status: webhookDeliveryStatusSchema,
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  log: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
