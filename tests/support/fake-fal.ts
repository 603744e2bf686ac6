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
 * - Platform API, https://docs.fal.ai/platform-apis/v1/models/pricing: GET /v1/models/pricing?endpoint_id=...
 *   ("Authentication: Required", `Authorization: Key <key>`; 1 to 50 endpoint ids) answers
 *   {prices: [{endpoint_id, unit_price, unit, currency}], next_cursor, has_more}. A missing or wrong key
 *   is refused with 401; the body's shape for it is not documented there (unconfirmed), so the stand-in
 *   answers fal's usual {detail: "..."} and the client reads either that or {error: {message}}.
 */

/**
 * The input schemas of the keyframe and reference endpoints, from each model page's "Input Schema"
 * (https://fal.ai/models/<endpoint>/llms.txt):
 * - fal-ai/veo3.1/first-last-frame-to-video: prompt, first_frame_url and last_frame_url; optional
 *   aspect_ratio (auto, 16:9, 9:16), duration (4s, 6s, 8s), negative_prompt, resolution (720p, 1080p, 4k),
 *   generate_audio, seed, auto_fix, safety_tolerance.
 * - fal-ai/veo3.1/reference-to-video: prompt and image_urls ("URLs of the reference images to use for
 *   consistent subject appearance"); optional aspect_ratio (16:9, 9:16), duration, resolution,
 *   generate_audio, auto_fix, safety_tolerance.
 * - fal-ai/kling-video/v2.5-turbo/pro/image-to-video: prompt and image_url; optional duration (5, 10),
 *   negative_prompt, cfg_scale, tail_image_url ("URL of the image to be used for the end of the video").
 * - fal-ai/wan-flf2v: prompt, start_image_url and end_image_url; optional negative_prompt (the fields
 *   of the page's example; its other optional fields are not listed here, so a client sending them fails).
 * - fal-ai/veo3.1/extend-video (https://fal.ai/models/fal-ai/veo3.1/extend-video/api and the API reference
 *   https://fal.ai/docs/model-api-reference/video-generation-api/veo3.1-extend-video.md): prompt and
 *   video_url (its example sends only these two); the input schema its Fast sibling's page lists
 *   (https://fal.ai/models/fal-ai/veo3.1/fast/extend-video/llms.txt): aspect_ratio (auto, 16:9, 9:16),
 *   duration (default "7s"), negative_prompt, resolution (default 720p), and generate_audio and auto_fix
 *   (the same schema as mirrored at docs.aimlapi.com/.../veo-3.1-fast-extend-video). It takes "input
 *   videos up to 8 seconds in length, 720p or 1080p resolution, 16:9 or 9:16 aspect ratio", and its
 *   answer is the whole extended video ("Extend Veo-Created Videos up to 30 seconds"; Google's Veo:
 *   an input "can be extended by 7 seconds (up to 37 seconds total)",
 *   https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/video/extend-videos).
 *   The stand-in cannot fetch our signed link (PUBLIC_URL is not reachable from it), so a test gives it
 *   the video it answers (`extendedVideo`: the original with 7 s more).
 * A submission missing a required field gets fal's validation answer (422, detail [{loc, msg, type}]);
 * one with a field its schema does not list is refused the same way, so a test sees any extra field.
 */
export const FAL_DOCUMENTED_INPUTS: Record<
  string,
  { required: string[]; optional: string[]; values?: Record<string, readonly unknown[]> }
> = {
  /*
   * Finishing tools (issue 48), from each page's input schema (https://fal.ai/models/<endpoint>/llms.txt):
   * - fal-ai/mmaudio-v2: video_url and prompt required; negative_prompt, seed, num_steps (4 to 50),
   *   duration (1 to 30, default 8), cfg_strength, mask_away_clip optional. Answers {video: File}.
   * - fal-ai/sync-lipsync/v2: video_url and audio_url required; model ("lipsync-2", "lipsync-2-pro") and
   *   sync_mode ("cut_off", "loop", "bounce", "silence", "remap") optional. Answers {video: File}.
   * - fal-ai/bytedance-upscaler/upscale/video: video_url required; target_resolution ("1080p", "2k",
   *   "4k"), target_fps ("30fps", "60fps"), enhancement_preset optional. Answers {video: File}.
   */
  'fal-ai/mmaudio-v2': {
    required: ['video_url', 'prompt'],
    optional: ['negative_prompt', 'seed', 'num_steps', 'duration', 'cfg_strength', 'mask_away_clip'],
    values: { duration: Array.from({ length: 30 }, (_, i) => i + 1) },
  },
  'fal-ai/sync-lipsync/v2': {
    required: ['video_url', 'audio_url'],
    optional: ['model', 'sync_mode'],
    values: {
      model: ['lipsync-2', 'lipsync-2-pro'],
      sync_mode: ['cut_off', 'loop', 'bounce', 'silence', 'remap'],
    },
  },
  // fal's page lists video_url, prompt, image_url and mode; the modes are Luma's (docs.lumalabs.ai/docs/modify-video).
  'fal-ai/luma-dream-machine/ray-2/modify': {
    required: ['video_url', 'prompt'],
    optional: ['image_url', 'mode'],
    values: {
      mode: [
        'adhere_1',
        'adhere_2',
        'adhere_3',
        'flex_1',
        'flex_2',
        'flex_3',
        'reimagine_1',
        'reimagine_2',
        'reimagine_3',
      ],
    },
  },
  'fal-ai/bytedance-upscaler/upscale/video': {
    required: ['video_url'],
    optional: ['target_resolution', 'target_fps', 'enhancement_preset'],
    values: { target_resolution: ['1080p', '2k', '4k'], target_fps: ['30fps', '60fps'] },
  },
  'fal-ai/veo3.1/first-last-frame-to-video': {
    required: ['prompt', 'first_frame_url', 'last_frame_url'],
    optional: [
      'aspect_ratio',
      'duration',
      'negative_prompt',
      'resolution',
      'generate_audio',
      'seed',
      'auto_fix',
      'safety_tolerance',
    ],
  },
  'fal-ai/veo3.1/reference-to-video': {
    required: ['prompt', 'image_urls'],
    optional: ['aspect_ratio', 'duration', 'resolution', 'generate_audio', 'auto_fix', 'safety_tolerance'],
  },
  'fal-ai/kling-video/v2.5-turbo/pro/image-to-video': {
    required: ['prompt', 'image_url'],
    optional: ['duration', 'negative_prompt', 'cfg_scale', 'tail_image_url'],
  },
  'fal-ai/wan-flf2v': { required: ['prompt', 'start_image_url', 'end_image_url'], optional: ['negative_prompt'] },
  'fal-ai/veo3.1/extend-video': {
    required: ['prompt', 'video_url'],
    optional: ['aspect_ratio', 'duration', 'negative_prompt', 'resolution', 'generate_audio', 'auto_fix'],
  },
};

/** Endpoints whose answer is the input video extended (the whole longer video), not a new clip. */
const EXTEND_ENDPOINTS = new Set(['fal-ai/veo3.1/extend-video']);

/** fal's 422 for an input its schema refuses (a missing field, or one it does not list), or null. */
function schemaProblem(endpoint: string, input: Record<string, unknown>): Reply | null {
  const schema = FAL_DOCUMENTED_INPUTS[endpoint];
  if (!schema) return null;
  const missing = schema.required.filter((field) => input[field] === undefined || input[field] === null);
  const extra = Object.keys(input).filter((f) => !schema.required.includes(f) && !schema.optional.includes(f));
  const wrong = Object.entries(schema.values ?? {}).filter(
    ([field, values]) => input[field] !== undefined && !values.includes(input[field]),
  );
  if (missing.length === 0 && extra.length === 0 && wrong.length === 0) return null;
  return {
    status: 422,
    json: {
      detail: [
        ...missing.map((f) => ({ loc: ['body', f], msg: 'Field required', type: 'missing' })),
        ...extra.map((f) => ({ loc: ['body', f], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' })),
        ...wrong.map(([f, values]) => ({
          loc: ['body', f],
          msg: `Input should be one of ${values.join(', ')}`,
          type: 'enum',
        })),
      ],
    },
  };
}

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
  /** The video every render answers. */
  video: Buffer;
  /** The video an extend call answers (the original with its continuation); `video` when unset. */
  extendedVideo: Buffer | null;
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
  /** Submissions refused by an endpoint's documented input schema (FAL_DOCUMENTED_INPUTS). */
  refused: { endpoint: string; input: Record<string, unknown> }[];
  rateLimited: number;
  /** Calls to the platform API's pricing read (the settings page's key check). */
  pricingChecks: number;
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
    video,
    extendedVideo: null,
    outcome: 'video',
    answerUrlBase: null,
    rateLimitNext: 0,
    stepMs: 600,
    requests: [],
    cancelled: [],
    refused: [],
    rateLimited: 0,
    pricingChecks: 0,
    close: () => server.close(),
  };
  const find = (id: string) => fake.requests.find((r) => r.id === id);
  server.route = (request: Recorded): Reply => {
    const url = new URL(request.path, server.baseUrl);
    if (url.pathname === '/files/clip.mp4') return { status: 200, bytes: fake.video };
    if (url.pathname === '/files/extended.mp4') return { status: 200, bytes: fake.extendedVideo ?? fake.video };
    if (request.headers.authorization !== `Key ${fake.key}`)
      return { status: 401, json: { detail: 'Invalid API key: no fal.ai key matches it' } };
    if (url.pathname === '/v1/models/pricing') {
      fake.pricingChecks += 1;
      const ids = url.searchParams.getAll('endpoint_id').flatMap((v) => v.split(','));
      if (request.method !== 'GET') return { status: 405, json: { detail: 'Method not allowed' } };
      if (ids.length < 1 || ids.length > 50)
        return { status: 422, json: { detail: [{ loc: ['query', 'endpoint_id'], msg: '1 to 50 endpoint ids' }] } };
      return {
        status: 200,
        json: {
          prices: ids.map((id) => ({ endpoint_id: id, unit_price: 0.4, unit: 'second', currency: 'USD' })),
          next_cursor: null,
          has_more: false,
        },
      };
    }
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
      const input = JSON.parse(request.body) as Record<string, unknown>;
      const refused = schemaProblem(endpoint, input);
      if (refused) {
        fake.refused.push({ endpoint, input });
        return refused;
      }
      fake.requests.push({
        id,
        endpoint,
        app,
        input,
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
    const extended = EXTEND_ENDPOINTS.has(job.endpoint);
    const file = extended ? (fake.extendedVideo ?? fake.video) : fake.video;
    return {
      status: 200,
      json: {
        video: {
          url: `${server.baseUrl}/files/${extended ? 'extended' : 'clip'}.mp4`,
          content_type: 'video/mp4',
          file_size: file.length,
        },
      },
    };
  };
  return fake;
}
