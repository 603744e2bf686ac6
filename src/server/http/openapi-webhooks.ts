import { REPORT_REASONS } from '../../shared/safety';
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from '../../shared/webhooks';
import { type Json, sampleOf } from './openapi-samples';

/** The signature headers of every webhook request (Standard Webhooks). */
const SIGNATURE_HEADERS = {
  'webhook-id': 'The event’s id: the same on every retry and redelivery (handle each id once).',
  'webhook-timestamp': 'When this attempt was signed, in seconds since 1970.',
  'webhook-signature':
    '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` keyed with the secret’s base64-decoded bytes.',
};

/**
 * The events POSTed to a user's webhook endpoints (OpenAPI 3.1 `webhooks`): Standard Webhooks'
 * `type`, `timestamp` and `data`; the video events carry the video as GET /api/video-generation lists it.
 */
export function webhookEvents(video: unknown): Json {
  const event = (type: string, summary: string, data: unknown, example: Json) => ({
    post: {
      operationId: webhookOperationId(type),
      summary,
      tags: ['Webhooks'],
      // The receiver checks the signature headers below; the request carries no credential of an API caller.
      security: [],
      parameters: Object.entries(SIGNATURE_HEADERS).map(([name, description]) => ({
        in: 'header',
        name,
        required: true,
        description,
        schema: { type: 'string' },
      })),
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                type: { type: 'string', const: type },
                timestamp: { type: 'string', format: 'date-time' },
                data,
              },
              required: ['type', 'timestamp', 'data'],
            },
            example: { type, timestamp: '2026-11-25T10:01:12.000Z', data: example },
          },
        },
      },
      responses: {
        '200': { description: 'Any 2xx answer is success; anything else is retried for 24 hours.' },
      },
    },
  });
  const finished = (status: string, extra: Json) => ({ ...(sampleOf(video) as Json), status, ...extra });
  const events: Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, Json> = {
    'video.completed': event('video.completed', 'A video is ready', video, finished('completed', { progress: 100 })),
    'video.failed': event(
      'video.failed',
      'A video failed',
      video,
      finished('failed', { errorMessage: 'The video could not be made.' }),
    ),
    'video.progress': event(
      'video.progress',
      'A video moved on (opt-in)',
      video,
      finished('processing', { progress: 40 }),
    ),
    'credits.low': event(
      'credits.low',
      'Credits fell below 1',
      {
        type: 'object',
        properties: { credits: { type: 'number' }, thresholdCredits: { type: 'number' } },
        required: ['credits', 'thresholdCredits'],
      },
      { credits: 0.5, thresholdCredits: 1 },
    ),
    'film.completed': event(
      'film.completed',
      'A film of your videos is ready (POST /api/films); it is also sent as video.completed',
      video,
      finished('completed', { progress: 100, model: 'film', creditsUsed: 0 }),
    ),
    'video.taken_down': event(
      'video.taken_down',
      'A video was taken down after a report',
      {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'The reported video.' },
          removed: {
            type: 'array',
            items: { type: 'string' },
            description: 'Every video removed with it (itself, and the extends and remixes made from it).',
          },
          reason: { type: 'string', enum: [...REPORT_REASONS] },
          note: { type: 'string', description: "The administrator's words ('' when none)." },
          takenDownAt: { type: 'string', format: 'date-time' },
        },
        required: ['id', 'removed', 'reason', 'note', 'takenDownAt'],
      },
      {
        id: '6f1c2a9e-0d4b-4c7a-9e2f-3b5d8a1c4e70',
        removed: ['6f1c2a9e-0d4b-4c7a-9e2f-3b5d8a1c4e70'],
        reason: 'likeness',
        note: '',
        takenDownAt: '2026-11-25T10:01:12.000Z',
      },
    ),
    [WEBHOOK_TEST_EVENT]: event(
      WEBHOOK_TEST_EVENT,
      'A test event (sent by POST /api/account/webhooks/{id}/test, never subscribed to)',
      {
        type: 'object',
        properties: {
          endpointId: { type: 'string', format: 'uuid', description: 'The endpoint it was sent to.' },
          message: { type: 'string' },
        },
        required: ['endpointId', 'message'],
      },
      { endpointId: 'b1d5e0a2-3c4f-4e6a-8b7c-9d0e1f2a3b4c', message: 'This is a test event from Reelsmith.' },
    ),
  };
  return events;
}

/** `video.taken_down` → `onVideoTakenDown`: the operation's name in generated code. */
const webhookOperationId = (type: string) =>
  `on${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}`;
