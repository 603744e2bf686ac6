import { randomUUID } from 'node:crypto';
import { type FakeServer, type Recorded, type Reply, startFakeServer } from './fake-provider';

/*
 * A local server speaking fal.ai's queue API, written from fal's public documentation and its official
 * client, not from our engine:
 * - Queue API, https://docs.fal.ai/model-endpoints/queue (and docs.fal.ai/documentation/model-apis/inference/queue):
 *   POST {queue}/{model_id}[/{subpath}] answers request_id with response_url, status_url and cancel_url
 *   "so you don't have to build these endpoints yourself"; status GET .../requests/{id}/status (?logs=1),
 *   result GET .../requests/{id}, cancel PUT .../requests/{id}/cancel, all without the subpath.
 * - @fal-ai/client (github.com/fal-ai/fal-js, libs/client/src/utils.ts parseEndpointId and queue.ts): the
 *   app id of `workflows/...` and `comfy/...` endpoints keeps three segments (namespace/owner/alias).
 * - Errors: 422 {detail: [{loc, msg, type}]} (content_policy_violation), {detail: "text"} otherwise.
 * The request URLs live only where the submit answer says: a client that builds them differently gets 404.
 */

/** How the stand-in ends the next requests: a video, a content-policy refusal, a run error, or never (to cancel). */
export type FalOutcome = 'video' | 'policy' | 'error' | 'never';

interface FalRequest {
  id: string;
  endpoint: string;
  /** The queue's app id (owner/alias, or namespace/owner/alias), as fal-js parseEndpointId reads the endpoint. */
  app: string;
  input: Record<string, unknown>;
  submittedAt: number;
  outcome: FalOutcome;
}

export interface FakeFal {
  baseUrl: string;
  server: FakeServer;
  key: string;
  /** What the next submissions end with. */
  outcome: FalOutcome;
  /**
   * Where the next submit answers' status_url, response_url and cancel_url point (this server unless
   * set): a test sets another server to play a hostile answer.
   */
  answerUrlBase: string | null;
  /** How many of the next requests (any kind) answer 429 first. */
  rateLimitNext: number;
  /** Each phase (queued at position 1, at 0, running 30 %, running 70 %) lasts this long. */
  stepMs: number;
  requests: FalRequest[];
  cancelled: string[];
  rateLimited: number;
  close(): Promise<void>;
}

export const FAL_POLICY_MESSAGE =
  'The content could not be processed because it contained material flagged by a content checker.';

/** fal-js parseEndpointId: `workflows` and `comfy` ids keep namespace/owner/alias, others owner/alias. */
export function falQueueApp(endpoint: string): string {
  const parts = endpoint.split('/');
  return parts.slice(0, ['workflows', 'comfy'].includes(parts[0] ?? '') ? 3 : 2).join('/');
}

/** A local server speaking fal.ai's queue API: submit, status (queue position, logs), result, cancel, and the file. */
export async function startFakeFal(video: Buffer, key = 'test-fal-key'): Promise<FakeFal> {
  const server = await startFakeServer();
  const fake: FakeFal = {
    baseUrl: server.baseUrl,
    server,
    key,
    outcome: 'video',
    answerUrlBase: null,
    rateLimitNext: 0,
    stepMs: 600,
    requests: [],
    cancelled: [],
    rateLimited: 0,
    close: () => server.close(),
  };
  const find = (id: string) => fake.requests.find((r) => r.id === id);
  server.route = (request: Recorded): Reply => {
    const url = new URL(request.path, server.baseUrl);
    if (url.pathname === '/files/clip.mp4') return { status: 200, bytes: video };
    if (request.headers.authorization !== `Key ${fake.key}`) return { status: 401, json: { detail: 'Invalid key' } };
    if (fake.rateLimitNext > 0) {
      fake.rateLimitNext -= 1;
      fake.rateLimited += 1;
      return { status: 429, json: { detail: 'Rate limit exceeded' } };
    }
    const match = /^\/(.+?)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(url.pathname);
    if (!match) {
      if (request.method !== 'POST') return { status: 404, json: { detail: 'Not found' } };
      const id = randomUUID();
      const endpoint = url.pathname.slice(1);
      const app = falQueueApp(endpoint);
      fake.requests.push({
        id,
        endpoint,
        app,
        input: JSON.parse(request.body) as Record<string, unknown>,
        submittedAt: Date.now(),
        outcome: fake.outcome,
      });
      const base = fake.answerUrlBase ?? server.baseUrl;
      return {
        status: 200,
        json: {
          request_id: id,
          status: 'IN_QUEUE',
          queue_position: 1,
          status_url: `${base}/${app}/requests/${id}/status`,
          response_url: `${base}/${app}/requests/${id}`,
          cancel_url: `${base}/${app}/requests/${id}/cancel`,
        },
      };
    }
    const job = find(match[2] ?? '');
    // A request is found only under its own app id: a path built from the wrong app id is not fal's.
    if (!job || job.app !== match[1]) return { status: 404, json: { detail: 'Request not found' } };
    const elapsed = Date.now() - job.submittedAt;
    const phase = Math.floor(elapsed / fake.stepMs);
    const done = job.outcome !== 'never' && phase >= 4 && !fake.cancelled.includes(job.id);
    if (match[3] === '/cancel') {
      if (request.method !== 'PUT') return { status: 405, json: { detail: 'Method not allowed' } };
      fake.cancelled.push(job.id);
      return { status: 202, json: { status: 'CANCELLATION_REQUESTED' } };
    }
    if (match[3] === '/status') {
      if (done) return { status: 200, json: { status: 'COMPLETED', request_id: job.id, logs: [] } };
      if (phase < 2)
        return { status: 200, json: { status: 'IN_QUEUE', request_id: job.id, queue_position: 1 - phase } };
      const percent = phase === 2 ? 30 : 70;
      return {
        status: 200,
        json: {
          status: 'IN_PROGRESS',
          request_id: job.id,
          logs: [
            { message: 'Loading model', level: 'INFO' },
            { message: `${percent}%|███ | ${percent / 5}/20`, level: 'INFO' },
          ],
        },
      };
    }
    if (!done) return { status: 400, json: { detail: 'Request is still in progress' } };
    if (job.outcome === 'policy') {
      return {
        status: 422,
        json: { detail: [{ loc: ['body', 'prompt'], msg: FAL_POLICY_MESSAGE, type: 'content_policy_violation' }] },
      };
    }
    if (job.outcome === 'error') return { status: 422, json: { detail: 'The model ran out of memory on this input.' } };
    return {
      status: 200,
      json: { video: { url: `${server.baseUrl}/files/clip.mp4`, content_type: 'video/mp4', file_size: video.length } },
    };
  };
  return fake;
}
