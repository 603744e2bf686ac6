import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { type FakeServer, type Recorded, type Reply, startFakeServer } from './fake-provider';

/*
 * A local server speaking Replicate's HTTP API, written from Replicate's public documentation, not from
 * our engine:
 * - Predictions, https://replicate.com/docs/reference/http: POST /v1/models/{owner}/{name}/predictions
 *   {input, webhook, webhook_events_filter} answers 201 with the prediction; GET /v1/predictions/{id};
 *   POST /v1/predictions/{id}/cancel; status starting | processing | succeeded | failed | canceled.
 * - A model's defaults apply to every input left out ("If you don't give a value for a field its default
 *   value will be used", the model's API page, e.g. https://replicate.com/google/veo-3/api):
 *   `effectiveInput` records what the model would run with.
 * - Webhooks, https://replicate.com/docs/topics/webhooks/verify-webhook: webhook-id, webhook-timestamp and
 *   webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>") headers, signed with the account's
 *   secret from GET /v1/webhooks/default/secret ({"key": "whsec_<base64>"}). The secret can change
 *   (`rotateSecret`); deliveries are then signed with the new one.
 */

/** Defaults of the models' input schemas for the fields we send (their API pages on replicate.com). */
const MODEL_DEFAULTS: Record<string, Record<string, unknown>> = {
  'google/veo-3': { aspect_ratio: '16:9', duration: 8, resolution: '1080p', generate_audio: true },
  'kwaivgi/kling-v2.1-master': { aspect_ratio: '16:9', duration: 5 },
};

export type ReplicateOutcome = 'video' | 'policy' | 'error' | 'never';

interface Prediction {
  id: string;
  model: string;
  input: Record<string, unknown>;
  /** The input with the model's defaults for what was left out: what Replicate would run (and bill). */
  effectiveInput: Record<string, unknown>;
  webhook: string | undefined;
  createdAt: number;
  outcome: ReplicateOutcome;
  canceled: boolean;
  webhookSent: boolean;
}

export interface FakeReplicate {
  baseUrl: string;
  server: FakeServer;
  token: string;
  /** The account's webhook signing secret, as GET /v1/webhooks/default/secret answers it. */
  secret: string;
  /** How many times the signing secret was asked for. */
  secretFetches: number;
  /** A new signing secret (as when the account's secret is rotated); deliveries are signed with it from now on. */
  rotateSecret(): void;
  outcome: ReplicateOutcome;
  rateLimitNext: number;
  rateLimited: number;
  stepMs: number;
  predictions: Prediction[];
  cancelled: string[];
  /** Webhook deliveries and the status our server answered. */
  deliveries: { id: string; status: string; answer: number }[];
  /** Signs a body as Replicate does (Standard Webhooks). */
  sign(body: string, id?: string, timestamp?: number): Record<string, string>;
  close(): Promise<void>;
}

export const REPLICATE_POLICY_ERROR =
  'The input or output was flagged as sensitive. Please try again with different inputs. (E005)';

/** A local server speaking Replicate's predictions API, sending signed webhooks when a prediction finishes. */
export async function startFakeReplicate(video: Buffer, token = 'r8_test_token'): Promise<FakeReplicate> {
  const server = await startFakeServer();
  let secretBytes = randomBytes(24);
  const timers = new Set<NodeJS.Timeout>();
  const fake: FakeReplicate = {
    baseUrl: server.baseUrl,
    server,
    token,
    secret: `whsec_${secretBytes.toString('base64')}`,
    secretFetches: 0,
    rotateSecret() {
      secretBytes = randomBytes(24);
      fake.secret = `whsec_${secretBytes.toString('base64')}`;
    },
    outcome: 'video',
    rateLimitNext: 0,
    rateLimited: 0,
    stepMs: 600,
    predictions: [],
    cancelled: [],
    deliveries: [],
    sign(body, id = `msg_${randomUUID()}`, timestamp = Math.floor(Date.now() / 1000)) {
      const signature = createHmac('sha256', secretBytes).update(`${id}.${timestamp}.${body}`).digest('base64');
      return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await server.close();
    },
  };

  const view = (p: Prediction) => {
    const phase = Math.floor((Date.now() - p.createdAt) / fake.stepMs);
    const base = {
      id: p.id,
      model: p.model,
      version: 'v1',
      input: p.input,
      urls: {
        get: `${server.baseUrl}/v1/predictions/${p.id}`,
        cancel: `${server.baseUrl}/v1/predictions/${p.id}/cancel`,
      },
    };
    if (p.canceled) return { ...base, status: 'canceled', output: null, error: null, logs: '' };
    if (phase < 1) return { ...base, status: 'starting', output: null, error: null, logs: '' };
    if (phase < 3 || p.outcome === 'never') {
      const percent = phase === 1 ? 30 : 70;
      return {
        ...base,
        status: 'processing',
        output: null,
        error: null,
        logs: `Loading model\n${percent}%|███ | ${percent / 5}/20`,
      };
    }
    if (p.outcome === 'policy')
      return { ...base, status: 'failed', output: null, error: REPLICATE_POLICY_ERROR, logs: '' };
    if (p.outcome === 'error')
      return { ...base, status: 'failed', output: null, error: 'CUDA out of memory.', logs: '' };
    return { ...base, status: 'succeeded', output: `${server.baseUrl}/files/output.mp4`, error: null, logs: '100%' };
  };

  const sendWebhook = async (p: Prediction) => {
    if (!p.webhook) return;
    const body = JSON.stringify(view(p));
    const headers = { 'content-type': 'application/json', ...fake.sign(body) };
    const answer = await fetch(p.webhook, { method: 'POST', headers, body }).then(
      (r) => r.status,
      () => 0,
    );
    fake.deliveries.push({ id: p.id, status: (JSON.parse(body) as { status: string }).status, answer });
  };

  server.route = (request: Recorded): Reply => {
    const url = new URL(request.path, server.baseUrl);
    if (url.pathname === '/files/output.mp4') return { status: 200, bytes: video };
    if (request.headers.authorization !== `Bearer ${fake.token}`)
      return {
        status: 401,
        json: { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 },
      };
    if (fake.rateLimitNext > 0) {
      fake.rateLimitNext -= 1;
      fake.rateLimited += 1;
      return {
        status: 429,
        json: {
          title: 'Request was throttled',
          detail: 'Request was throttled. Expected available in 1 second.',
          status: 429,
        },
      };
    }
    if (request.method === 'GET' && url.pathname === '/v1/webhooks/default/secret') {
      fake.secretFetches += 1;
      return { status: 200, json: { key: fake.secret } };
    }
    const create = /^\/v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(url.pathname);
    if (create && request.method === 'POST') {
      const body = JSON.parse(request.body) as { input: Record<string, unknown>; webhook?: string };
      const prediction: Prediction = {
        id: randomUUID().replaceAll('-', '').slice(0, 26),
        model: create[1] ?? '',
        input: body.input,
        effectiveInput: { ...MODEL_DEFAULTS[create[1] ?? ''], ...body.input },
        webhook: body.webhook,
        createdAt: Date.now(),
        outcome: fake.outcome,
        canceled: false,
        webhookSent: false,
      };
      fake.predictions.push(prediction);
      if (prediction.webhook && prediction.outcome !== 'never') {
        // Replicate calls the webhook when the prediction completes (and on start and logs; the end is what matters).
        const timer = setTimeout(
          () => {
            timers.delete(timer);
            void sendWebhook(prediction);
          },
          fake.stepMs * 3 + 20,
        );
        timers.add(timer);
      }
      return { status: 201, json: view(prediction) };
    }
    const one = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(url.pathname);
    const prediction = one ? fake.predictions.find((p) => p.id === one[1]) : undefined;
    if (!one || !prediction) return { status: 404, json: { title: 'Not found', detail: 'Not found', status: 404 } };
    if (one[2] && request.method === 'POST') {
      prediction.canceled = true;
      fake.cancelled.push(prediction.id);
      return { status: 200, json: view(prediction) };
    }
    return { status: 200, json: view(prediction) };
  };
  return fake;
}
