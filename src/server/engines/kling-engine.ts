import { createHmac } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { klingCameraControl, promptWithCamera } from './camera';
import { EngineError, sleep, type EngineContext, type EngineJob, type VideoEngine } from './engine';
import {
  describeBody,
  downloadToFile,
  estimateProgress,
  joinUrl,
  readInputBytes,
  requestJson,
  withDeadline,
  type ProviderPolicy,
} from './provider-http';

export interface KlingEngineOptions {
  accessKey: string;
  secretKey: string;
  /** Usually https://api-singapore.klingai.com; a local server in tests. */
  baseUrl: string;
  /** For text2video and image2video; omni-video has its own model. */
  model: string;
  pollIntervalMs: number;
  /** How long the provider may take, from the start (or resume) to a finished task. */
  timeoutMs: number;
  retryBaseDelayMs?: number;
}

const ENDPOINTS = ['text2video', 'image2video', 'omni-video', 'video-extend'] as const;
type Endpoint = (typeof ENDPOINTS)[number];

// omni-video (video editing) only runs Kling's Omni model, whatever model the other endpoints use.
const OMNI_MODEL = 'kling-video-o1';
const MAX_PROMPT_CHARS = 2500;
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const TYPICAL_RENDER_MS = 180_000;
const TOKEN_LIFETIME_SECONDS = 1800;

const envelopeSchema = z.object({ code: z.number(), message: z.string().optional(), data: z.unknown().optional() });

const taskSchema = z.object({
  task_id: z.union([z.string(), z.number()]).transform(String),
  task_status: z.string(),
  task_status_msg: z.string().optional(),
  task_result: z
    .object({
      videos: z
        .array(z.object({ id: z.union([z.string(), z.number()]).transform(String).optional(), url: z.string() }))
        .optional(),
    })
    .optional(),
});
type KlingTask = z.infer<typeof taskSchema>;

/** Kling's error for an HTTP status and its `{code, message}` body (also used for 200s with a non-zero code). */
function toKlingError(status: number, body: unknown): EngineError {
  const parsed = envelopeSchema.safeParse(body);
  const code = parsed.success ? parsed.data.code : undefined;
  const message = (parsed.success ? parsed.data.message : undefined) ?? '';
  const detail = `HTTP ${status} code ${code ?? '?'}: ${describeBody(body)}`;
  const between = (low: number, high: number) => code !== undefined && code >= low && code <= high;
  if (status === 401 || between(1000, 1004))
    return new EngineError('Kling rejected the API keys.', false, detail, false, 'auth');
  if (between(1100, 1102)) {
    const text =
      'The Kling account cannot start videos (an account problem, an unpaid balance or no resource pack left).';
    return new EngineError(text, false, detail);
  }
  if (status === 403 || code === 1103)
    return new EngineError('Kling refused access to this feature or model.', false, detail);
  if (between(1300, 1301)) {
    return new EngineError(
      `Kling refused this prompt for safety reasons: ${message}`.trim(),
      false,
      detail,
      false,
      'policy',
    );
  }
  if (status === 429 || status >= 500 || between(1302, 1303) || between(5000, 5999)) {
    return new EngineError('Kling is busy right now. Please try again later.', true, detail);
  }
  return new EngineError(`Kling refused this request. ${message}`.trim(), false, detail);
}

const klingPolicy: ProviderPolicy = {
  providerName: 'Kling',
  shouldRetry(status, body) {
    if (status >= 500) return true;
    const parsed = envelopeSchema.safeParse(body);
    // Only rate and concurrency limits pass with time; other 429s are account problems.
    return status === 429 && parsed.success && (parsed.data.code === 1302 || parsed.data.code === 1303);
  },
  toError: toKlingError,
};

/** A Kling API token: a JWT (HS256) issued by the access key and signed with the secret key. */
export function signKlingToken(accessKey: string, secretKey: string, nowMs = Date.now()): string {
  const now = Math.floor(nowMs / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iss: accessKey, exp: now + TOKEN_LIFETIME_SECONDS, nbf: now - 5 })}`;
  return `${unsigned}.${createHmac('sha256', secretKey).update(unsigned).digest('base64url')}`;
}

/**
 * Kling AI's official API: text-to-video, image-to-video, video-to-video editing (omni-video) and
 * Extend through its video-extend call, which continues a video Kling made, named by Kling's id of it.
 */
export function createKlingEngine(options: KlingEngineOptions): VideoEngine {
  async function call(
    method: 'GET' | 'POST',
    apiPath: string,
    signal: AbortSignal,
    body?: unknown,
  ): Promise<KlingTask> {
    const raw = await requestJson({
      method,
      url: joinUrl(options.baseUrl, apiPath),
      headers: { authorization: `Bearer ${signKlingToken(options.accessKey, options.secretKey)}` },
      body,
      signal,
      policy: klingPolicy,
      retryBaseDelayMs: options.retryBaseDelayMs,
    });
    const envelope = envelopeSchema.safeParse(raw);
    if (envelope.success && envelope.data.code !== 0) throw toKlingError(200, raw);
    const task = taskSchema.safeParse(envelope.success ? envelope.data.data : undefined);
    if (!task.success) throw new EngineError('Kling sent an answer we could not read.', true, describeBody(raw));
    return task.data;
  }

  async function start(job: EngineJob, context: EngineContext, signal: AbortSignal) {
    const endpoint = endpointFor(job);
    const body = job.extendFrom
      ? extendBody(job, await originalVideoId(job.extendFrom.providerTaskId, signal))
      : await buildRequestBody(job, endpoint, options.model);
    const task = await call('POST', `v1/videos/${endpoint}`, signal, body);
    // The create path is kept with the id: a resumed job must query the same path.
    await context.saveProviderTask(`${endpoint}:${task.task_id}`);
    context.reportProgress(10, 'Queued at Kling');
    return { endpoint, task };
  }

  /**
   * Kling's id of the original video (`video_id` for video-extend): `task_result.videos[0].id` of the
   * finished task that made it, read again from that task as it was saved.
   */
  async function originalVideoId(saved: string, signal: AbortSignal): Promise<string> {
    const made = parseSavedTask(saved, 'text2video');
    const task = await call('GET', `v1/videos/${made.endpoint}/${encodeURIComponent(made.taskId)}`, signal);
    const id = task.task_result?.videos?.[0]?.id;
    if (task.task_status !== 'succeed' || !id)
      throw new EngineError(
        'Kling no longer has the original video, so it cannot extend it. Extend it again to continue it from its last frame with a crossfade.',
        false,
        `task ${saved}: ${task.task_status}`,
      );
    return id;
  }

  async function waitUntilFinished(endpoint: Endpoint, taskId: string, context: EngineContext, signal: AbortSignal) {
    const startedAt = Date.now();
    for (;;) {
      const task = await call('GET', `v1/videos/${endpoint}/${encodeURIComponent(taskId)}`, signal);
      if (task.task_status === 'succeed' || task.task_status === 'failed') return task;
      const stage = task.task_status === 'submitted' ? 'Queued at Kling' : 'Generating with Kling';
      context.reportProgress(estimateProgress(Date.now() - startedAt, TYPICAL_RENDER_MS), stage);
      await sleep(options.pollIntervalMs, signal);
    }
  }

  return {
    id: 'kling-v2v',
    async render(job, context) {
      const task = await withDeadline(context.signal, options.timeoutMs, async (signal) => {
        if (job.providerTaskId) {
          const saved = parseSavedTask(job.providerTaskId, endpointFor(job));
          context.reportProgress(10, 'Generating with Kling');
          return waitUntilFinished(saved.endpoint, saved.taskId, context, signal);
        }
        const started = await start(job, context, signal);
        await sleep(options.pollIntervalMs, signal);
        return waitUntilFinished(started.endpoint, started.task.task_id, context, signal);
      });
      if (task.task_status === 'failed') {
        const reason = task.task_status_msg?.trim();
        throw new EngineError(
          reason ? `Kling could not make this video: ${reason}` : 'Kling could not make this video.',
          false,
        );
      }
      const url = task.task_result?.videos?.[0]?.url;
      if (!url) throw new EngineError('Kling finished without a video.', true, `task ${task.task_id}`, true);
      context.reportProgress(90, 'Downloading video');
      const filePath = path.join(context.workDir, 'kling-output.mp4');
      // Kling's result URLs are public CDN links: the API token is not sent there.
      await downloadToFile(url, {}, filePath, context.signal);
      return { filePath };
    },
  };
}

function endpointFor(job: EngineJob): Endpoint {
  if (job.extendFrom) return 'video-extend';
  if (job.inputs.video) return 'omni-video';
  if (job.inputs.image) return 'image2video';
  return 'text2video';
}

/** Reads `<endpoint>:<task id>`; a bare id (or an unknown endpoint) falls back to the job's own endpoint. */
function parseSavedTask(saved: string, fallback: Endpoint): { endpoint: Endpoint; taskId: string } {
  const colon = saved.indexOf(':');
  const prefix = colon > 0 ? saved.slice(0, colon) : '';
  const endpoint = ENDPOINTS.find((candidate) => candidate === prefix);
  return endpoint ? { endpoint, taskId: saved.slice(colon + 1) } : { endpoint: fallback, taskId: saved };
}

/**
 * video-extend's body: `video_id`, `prompt`, `negative_prompt`, `cfg_scale` (and `callback_url`) are its
 * whole schema (ComfyUI's Kling client, comfyanonymous/ComfyUI comfy_api_nodes/apis `KlingVideoExtendRequest`):
 * no model, length, shape or camera control. A camera move goes into the prompt.
 */
function extendBody(job: EngineJob, videoId: string): Record<string, unknown> {
  return {
    video_id: videoId,
    prompt: klingPrompt(promptWithCamera(job.prompt, job.settings.cameraMove)),
    ...negativePromptOf(job),
    cfg_scale: 0.5,
  };
}

const klingPrompt = (text: string) => Array.from(text).slice(0, MAX_PROMPT_CHARS).join('');
const negativePromptOf = (job: EngineJob) =>
  job.settings.negativePrompt?.trim() ? { negative_prompt: job.settings.negativePrompt } : {};

async function buildRequestBody(job: EngineJob, endpoint: Endpoint, model: string): Promise<Record<string, unknown>> {
  const move = job.settings.cameraMove;
  const cameraControl = endpoint === 'omni-video' ? null : klingCameraControl(move);
  // A move Kling's camera control expresses goes there; the others (static, orbit, handheld) into the prompt.
  const text = cameraControl ? job.prompt : promptWithCamera(job.prompt, move);
  const prompt = klingPrompt(text);
  const video = job.inputs.video;
  if (endpoint === 'omni-video' && video) {
    // When editing a video, Kling takes duration and aspect ratio from that video.
    return {
      model_name: OMNI_MODEL,
      prompt,
      video_list: [{ video_url: video.url, refer_type: 'base', keep_original_sound: job.hasAudio ? 'yes' : 'no' }],
      mode: 'std',
      external_task_id: job.id,
    };
  }
  const body: Record<string, unknown> = {
    model_name: model,
    prompt,
    ...negativePromptOf(job),
    cfg_scale: 0.5,
    // Kling renders 720p in std mode and 1080p in pro mode.
    mode: job.settings.resolution === '1080p' ? 'pro' : 'std',
    aspect_ratio: job.settings.aspectRatio ?? '16:9',
    duration: String(job.duration),
    ...(cameraControl ? { camera_control: cameraControl } : {}),
    external_task_id: job.id,
  };
  const image = job.inputs.image;
  if (endpoint === 'image2video' && image) {
    const bytes = await readInputBytes(image, MAX_IMAGE_BYTES, 'The image is too large for Kling (at most 10 MB).');
    // Raw base64: Kling refuses a data: URL prefix.
    body.image = bytes.toString('base64');
  }
  return body;
}
