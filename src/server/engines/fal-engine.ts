import path from 'node:path';
import { z } from 'zod';
import { EngineError, sleep, shouldCancelTask, type EngineContext, type EngineJob, type VideoEngine } from './engine';
import {
  describeBody,
  downloadToFile,
  isTransientStatus,
  joinUrl,
  requestJson,
  withDeadline,
  type ProviderPolicy,
} from './provider-http';
import { QUEUED_PROGRESS, queuedStage, runningProgress } from './provider-progress';

/** How a model family names its inputs on fal (each family's request schema differs). */
export type FalFamily = 'veo' | 'kling' | 'wan' | 'ltx' | 'hailuo';

export interface FalModel {
  id: string;
  name: string;
  family: FalFamily;
  /** Endpoint ids such as fal-ai/veo3 and fal-ai/veo3/image-to-video (the latter when an image is given). */
  textEndpoint: string;
  imageEndpoint: string | null;
  /** The first-last-frame endpoint; null when the image endpoint takes the end frame itself (Kling) or none does. */
  endFrameEndpoint?: string | null;
  /** The reference-to-video endpoint, for a model that takes reference images. */
  referenceEndpoint?: string | null;
  /** The extend endpoint (a video continued and answered whole), for Extend's `extendVideo`. */
  extendEndpoint?: string | null;
}

/** Which of a model's calls a job makes: text only, a start image, start and end frames, reference images, or extend. */
export type FalCall = 'text' | 'image' | 'frames' | 'references' | 'extend';

/** The call and its endpoint for a job (the catalogue only offers an end frame or references a model takes). */
export function falCallFor(model: FalModel, job: EngineJob): { call: FalCall; endpoint: string } {
  if (job.extendVideo) {
    // Never a plain render in its place: the worker stores this call's answer as the whole extended video.
    if (!model.extendEndpoint)
      throw new EngineError(`${model.name} has no extend call on this server. Extend the original video again.`, false);
    return { call: 'extend', endpoint: model.extendEndpoint };
  }
  if (job.inputs.image && job.endImage && (model.endFrameEndpoint || model.imageEndpoint))
    return { call: 'frames', endpoint: model.endFrameEndpoint ?? model.imageEndpoint ?? model.textEndpoint };
  if (job.referenceImages?.length && model.referenceEndpoint)
    return { call: 'references', endpoint: model.referenceEndpoint };
  if (job.inputs.image && model.imageEndpoint) return { call: 'image', endpoint: model.imageEndpoint };
  return { call: 'text', endpoint: model.textEndpoint };
}

export interface FalEngineOptions {
  apiKey: string;
  /** https://queue.fal.run; a local server in tests. */
  baseUrl: string;
  model: FalModel;
  pollIntervalMs: number;
  timeoutMs: number;
  retryBaseDelayMs?: number;
}

/** One call on fal's queue: the endpoint and the input its page documents. */
export interface FalRequestPlan {
  endpoint: string;
  input: Record<string, unknown>;
}

/** fal's queue for any job: what it is called and how a job becomes its one request (a model's render, a finishing tool's call). */
export interface FalQueueOptions extends Omit<FalEngineOptions, 'model'> {
  id: string;
  name: string;
  request(job: EngineJob): FalRequestPlan;
}

const TYPICAL_RENDER_MS = 120_000;
const CANCEL_TIMEOUT_MS = 10_000;

const statusSchema = z.object({
  status: z.string(),
  queue_position: z.number().nullish(),
  logs: z.array(z.object({ message: z.string().optional() }).passthrough()).nullish(),
  error: z.string().nullish(),
});
const resultSchema = z.object({ video: z.object({ url: z.string() }).passthrough() }).passthrough();
/** fal's submit answer: the request id and the URLs of its status, result and cancel (fal's queue docs; @fal-ai/client's InQueueQueueStatus). */
const submitSchema = z
  .object({
    request_id: z.string().min(1),
    queue_position: z.number().nullish(),
    status_url: z.string().nullish(),
    response_url: z.string().nullish(),
    cancel_url: z.string().nullish(),
  })
  .passthrough();

/** fal's error bodies: {detail: "text"} or {detail: [{msg, type, loc}]} (422 validation and content checks). */
const detailSchema = z.object({
  detail: z.union([
    z.string(),
    z.array(z.object({ msg: z.string().optional(), type: z.string().optional() }).passthrough()),
  ]),
});

function detailOf(body: unknown): { text: string; policy: boolean } {
  const parsed = detailSchema.safeParse(body);
  if (!parsed.success) return { text: '', policy: false };
  const { detail } = parsed.data;
  if (typeof detail === 'string') return { text: detail, policy: /content|policy|flagged|safety/i.test(detail) };
  const text = detail
    .map((d) => d.msg ?? '')
    .filter(Boolean)
    .join(' ');
  return { text, policy: detail.some((d) => /content_policy|content_check|safety/i.test(d.type ?? '')) };
}

const falPolicy: ProviderPolicy = {
  providerName: 'fal.ai',
  shouldRetry: isTransientStatus,
  toError(status, body) {
    const detail = `HTTP ${status}: ${describeBody(body)}`;
    const { text, policy } = detailOf(body);
    if (policy)
      return new EngineError(
        `fal.ai refused this video: ${text || 'it was flagged by the content checker.'}`,
        false,
        detail,
        false,
        'policy',
      );
    if (isTransientStatus(status))
      return new EngineError('fal.ai is busy right now. Please try again later.', true, detail);
    if (status === 401 || status === 403)
      return new EngineError("fal.ai refused this server's API key.", false, detail, false, 'auth');
    return new EngineError(`fal.ai could not make this video. ${text}`.trim(), false, detail);
  },
};

/** Namespaces whose endpoint ids keep a third segment in the app id (@fal-ai/client's parseEndpointId). */
const FAL_NAMESPACES = ['workflows', 'comfy'];

/**
 * The queue's app id of an endpoint: owner/alias (`fal-ai/veo3` for `fal-ai/veo3/image-to-video`), or
 * namespace/owner/alias for `workflows/...` and `comfy/...` ids. Only used to build the documented
 * URLs when fal's submit answer leaves one out (and for tasks saved before we kept fal's URLs).
 */
export function falAppId(endpoint: string): string {
  const parts = endpoint.split('/');
  return parts.slice(0, FAL_NAMESPACES.includes(parts[0] ?? '') ? 3 : 2).join('/');
}

/** A request on fal's queue: its id and the URLs fal gave for it. */
interface QueueTask {
  requestId: string;
  statusUrl: string;
  responseUrl: string;
  cancelUrl: string;
}

/** The documented queue URLs (https://queue.fal.run/{app id}/requests/{id}[/status|/cancel]). */
function documentedUrls(baseUrl: string, endpoint: string, requestId: string): QueueTask {
  const responseUrl = joinUrl(baseUrl, `${falAppId(endpoint)}/requests/${encodeURIComponent(requestId)}`);
  return { requestId, responseUrl, statusUrl: `${responseUrl}/status`, cancelUrl: `${responseUrl}/cancel` };
}

/**
 * Our key goes only to the configured queue (FAL_BASE_URL, https://queue.fal.run): a URL that leaves
 * it (another host, scheme or port, or a path outside the base) is refused, so a hostile or garbled
 * answer cannot make us send the key elsewhere. Returns the normalised URL, or null.
 */
export function onQueue(baseUrl: string, candidate: string): string | null {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  if (url.origin !== base.origin || url.username || url.password || !url.pathname.startsWith(base.pathname))
    return null;
  return url.href;
}

/** Each URL of a task checked against the queue; the first that leaves it is named in the error. */
function checkedTask(baseUrl: string, task: QueueTask): QueueTask {
  const checked = { ...task };
  for (const key of ['statusUrl', 'responseUrl', 'cancelUrl'] as const) {
    const url = onQueue(baseUrl, task[key]);
    if (!url)
      throw new EngineError(
        'fal.ai sent an answer we could not read.',
        false,
        `${key} ${task[key].slice(0, 200)} is not on the queue at ${baseUrl}`,
      );
    checked[key] = url;
  }
  return checked;
}

/** A model on fal.ai through its queue API: submit, status (queue position, logs), result, cancel. */
export function createFalEngine({ model, ...options }: FalEngineOptions): VideoEngine {
  return createFalQueueEngine({
    ...options,
    id: model.id,
    name: model.name,
    request: (job) => {
      const { call, endpoint } = falCallFor(model, job);
      return { endpoint, input: buildInput(model.family, job, call) };
    },
  });
}

/** A job on fal's queue: submitted, its request saved, followed to its end (or resumed), its video downloaded. */
export function createFalQueueEngine(options: FalQueueOptions): VideoEngine {
  const headers = { authorization: `Key ${options.apiKey}` };
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, signal: AbortSignal, body?: unknown) =>
    requestJson({
      method,
      url,
      headers,
      body,
      signal,
      policy: falPolicy,
      retryBaseDelayMs: options.retryBaseDelayMs,
    });
  const model = { id: options.id, name: options.name };

  async function waitUntilDone(task: QueueTask, context: EngineContext, signal: AbortSignal): Promise<void> {
    const startedAt = Date.now();
    const statusUrl = new URL(task.statusUrl);
    statusUrl.searchParams.set('logs', '1');
    for (;;) {
      const raw = await call('GET', statusUrl.href, signal);
      const parsed = statusSchema.safeParse(raw);
      if (!parsed.success) throw new EngineError('fal.ai sent an answer we could not read.', true, describeBody(raw));
      const status = parsed.data;
      if (status.status === 'COMPLETED') {
        // Newer queues report a failed run here; the result call below explains it either way.
        return;
      }
      if (status.status === 'IN_QUEUE') {
        context.reportProgress(QUEUED_PROGRESS, queuedStage('fal.ai', status.queue_position));
      } else {
        const logs = (status.logs ?? []).map((l) => l.message ?? '');
        context.reportProgress(
          runningProgress(logs, Date.now() - startedAt, TYPICAL_RENDER_MS),
          `Generating with ${model.name}`,
        );
      }
      await sleep(options.pollIntervalMs, signal);
    }
  }

  async function cancel(cancelUrl: string): Promise<void> {
    await call('PUT', cancelUrl, AbortSignal.timeout(CANCEL_TIMEOUT_MS)).catch(() => undefined);
  }

  return {
    id: model.id,
    async render(job, context) {
      let task: QueueTask | null = job.providerTaskId ? parseSavedTask(options.baseUrl, job.providerTaskId) : null;
      try {
        const result = await withDeadline(context.signal, options.timeoutMs, async (signal) => {
          if (!task) {
            const { endpoint, input } = options.request(job);
            const raw = await call('POST', joinUrl(options.baseUrl, endpoint), signal, input);
            const submitted = submitSchema.safeParse(raw);
            if (!submitted.success)
              throw new EngineError('fal.ai did not accept the video job.', true, describeBody(raw));
            const answer = submitted.data;
            // fal's answer names the request's URLs ("so you don't have to build these endpoints
            // yourself"); the documented paths stand in only for one it leaves out.
            const documented = documentedUrls(options.baseUrl, endpoint, answer.request_id);
            const given: QueueTask = {
              requestId: answer.request_id,
              statusUrl: answer.status_url ?? documented.statusUrl,
              responseUrl: answer.response_url ?? documented.responseUrl,
              cancelUrl: answer.cancel_url ?? documented.cancelUrl,
            };
            try {
              task = checkedTask(options.baseUrl, given);
            } catch (error) {
              // Never followed: the request is cancelled on the queue we know instead.
              await cancel(documented.cancelUrl);
              throw error;
            }
            // Saved before waiting: a retried job resumes this request instead of paying for another.
            await context.saveProviderTask(JSON.stringify(task));
            context.reportProgress(QUEUED_PROGRESS, queuedStage('fal.ai', answer.queue_position));
          }
          await waitUntilDone(task, context, signal);
          return call('GET', task.responseUrl, signal);
        });
        const parsed = resultSchema.safeParse(result);
        if (!parsed.success) throw new EngineError('fal.ai finished without a video.', false, describeBody(result));
        context.reportProgress(90, 'Downloading video');
        const filePath = path.join(context.workDir, 'fal-output.mp4');
        // fal's results are public CDN links: the key is not sent there.
        await downloadToFile(parsed.data.video.url, {}, filePath, context.signal);
        return { filePath };
      } catch (error) {
        if (task && shouldCancelTask(job, context.signal, error)) await cancel(task.cancelUrl);
        throw error;
      }
    },
  };
}

const savedTaskSchema = z.object({
  requestId: z.string().min(1),
  statusUrl: z.string(),
  responseUrl: z.string(),
  cancelUrl: z.string(),
});

/**
 * A saved task: the JSON of its URLs, or `<app id>|<request id>` from before we kept fal's URLs.
 * Checked against the queue again, in case FAL_BASE_URL changed since.
 */
function parseSavedTask(baseUrl: string, saved: string): QueueTask {
  if (saved.startsWith('{')) {
    let json: unknown = null;
    try {
      json = JSON.parse(saved) as unknown;
    } catch {
      // Reported below.
    }
    const parsed = savedTaskSchema.safeParse(json);
    if (!parsed.success) throw new EngineError('fal.ai sent an answer we could not read.', false, saved.slice(0, 200));
    return checkedTask(baseUrl, parsed.data);
  }
  const bar = saved.lastIndexOf('|');
  return documentedUrls(baseUrl, saved.slice(0, bar), saved.slice(bar + 1));
}

/** What Veo's extend call adds: 7 s (fal's default "7s"; Google: "can be extended by 7 seconds"). */
const VEO_EXTEND_DURATION = '7s';

const seedOf = (job: EngineJob) => (job.settings.seed === undefined ? {} : { seed: job.settings.seed });
const negativeOf = (job: EngineJob) =>
  job.settings.negativePrompt?.trim() ? { negative_prompt: job.settings.negativePrompt } : {};
const imageOf = (job: EngineJob) => (job.inputs.image ? { image_url: job.inputs.image.url } : {});

/**
 * The request body of one fal model family, from the job's values: only the fields the endpoint's
 * input schema lists (its model page's llms.txt). `call` says which of the model's endpoints is called.
 */
export function buildInput(family: FalFamily, job: EngineJob, call: FalCall = 'text'): Record<string, unknown> {
  const aspect = job.settings.aspectRatio ?? '16:9';
  const imageEndpoint = call === 'image' || call === 'frames';
  switch (family) {
    case 'veo': {
      const common = {
        prompt: job.prompt,
        aspect_ratio: aspect === '1:1' ? '16:9' : aspect,
        duration: `${job.duration}s`,
        resolution: job.settings.resolution === '1080p' ? '1080p' : '720p',
        generate_audio: job.hasAudio,
      };
      // fal-ai/veo3.1/extend-video (https://fal.ai/models/fal-ai/veo3.1/extend-video/api, and the input
      // schema of fal-ai/veo3.1/fast/extend-video/llms.txt): prompt and video_url, with aspect_ratio
      // (auto, 16:9, 9:16), duration (its default and only documented length "7s": Veo extends by 7 s),
      // negative_prompt, resolution and generate_audio. The shape and size are the original's.
      if (call === 'extend')
        return {
          ...common,
          duration: VEO_EXTEND_DURATION,
          ...negativeOf(job),
          video_url: job.extendVideo?.url,
        };
      // fal-ai/veo3.1/reference-to-video lists prompt, aspect_ratio, duration, resolution, generate_audio,
      // auto_fix, safety_tolerance and image_urls ("URLs of the reference images").
      if (call === 'references') return { ...common, image_urls: (job.referenceImages ?? []).map((r) => r.url) };
      // fal-ai/veo3.1/first-last-frame-to-video: the text fields plus first_frame_url and last_frame_url.
      if (call === 'frames')
        return {
          ...common,
          ...negativeOf(job),
          ...seedOf(job),
          first_frame_url: job.inputs.image?.url,
          last_frame_url: job.endImage?.url,
        };
      return { ...common, ...negativeOf(job), ...seedOf(job), ...imageOf(job) };
    }
    case 'kling':
      // Kling's image-to-video takes no aspect_ratio (the picture sets the shape); `tail_image_url` is
      // "the image to be used for the end of the video" (v2.5-turbo/pro/image-to-video).
      return {
        prompt: job.prompt,
        duration: String(job.duration),
        ...(imageEndpoint ? {} : { aspect_ratio: aspect }),
        cfg_scale: 0.5,
        ...negativeOf(job),
        ...imageOf(job),
        ...(call === 'frames' && job.endImage ? { tail_image_url: job.endImage.url } : {}),
      };
    case 'wan':
      // fal-ai/wan-flf2v: prompt, negative_prompt, start_image_url and end_image_url.
      if (call === 'frames')
        return {
          prompt: job.prompt,
          ...negativeOf(job),
          start_image_url: job.inputs.image?.url,
          end_image_url: job.endImage?.url,
        };
      return {
        prompt: job.prompt,
        aspect_ratio: aspect,
        resolution: '720p',
        num_frames: job.duration * 24 + 1,
        frames_per_second: 24,
        ...negativeOf(job),
        ...seedOf(job),
        ...imageOf(job),
      };
    case 'ltx':
      return {
        prompt: job.prompt,
        aspect_ratio: aspect,
        resolution: '720p',
        num_frames: job.duration * 24 + 1,
        frame_rate: 24,
        ...negativeOf(job),
        ...seedOf(job),
        ...imageOf(job),
      };
    case 'hailuo':
      return { prompt: job.prompt, duration: String(job.duration), prompt_optimizer: true, ...imageOf(job) };
  }
}
