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

const TYPICAL_RENDER_MS = 120_000;
const CANCEL_TIMEOUT_MS = 10_000;

const statusSchema = z.object({
  status: z.string(),
  queue_position: z.number().nullish(),
  logs: z.array(z.object({ message: z.string().optional() }).passthrough()).nullish(),
  error: z.string().nullish(),
});
const resultSchema = z.object({ video: z.object({ url: z.string() }).passthrough() }).passthrough();
const submitSchema = z.object({ request_id: z.string().min(1), queue_position: z.number().nullish() }).passthrough();

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
      );
    if (isTransientStatus(status))
      return new EngineError('fal.ai is busy right now. Please try again later.', true, detail);
    if (status === 401 || status === 403)
      return new EngineError('fal.ai refused the API key (FAL_KEY).', false, detail);
    return new EngineError(`fal.ai could not make this video. ${text}`.trim(), false, detail);
  },
};

/** The queue's app id (owner/alias): status, result and cancel paths leave the endpoint's subpath out. */
export function falAppId(endpoint: string): string {
  return endpoint.split('/').slice(0, 2).join('/');
}

/** A model on fal.ai through its queue API: submit, status (queue position, logs), result, cancel. */
export function createFalEngine(options: FalEngineOptions): VideoEngine {
  const headers = { authorization: `Key ${options.apiKey}` };
  const call = (method: 'GET' | 'POST' | 'PUT', apiPath: string, signal: AbortSignal, body?: unknown) =>
    requestJson({
      method,
      url: joinUrl(options.baseUrl, apiPath),
      headers,
      body,
      signal,
      policy: falPolicy,
      retryBaseDelayMs: options.retryBaseDelayMs,
    });
  const { model } = options;

  async function waitUntilDone(task: SavedTask, context: EngineContext, signal: AbortSignal): Promise<void> {
    const startedAt = Date.now();
    for (;;) {
      const raw = await call(
        'GET',
        `${task.appId}/requests/${encodeURIComponent(task.requestId)}/status?logs=1`,
        signal,
      );
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

  async function cancel(task: SavedTask): Promise<void> {
    const signal = AbortSignal.timeout(CANCEL_TIMEOUT_MS);
    await call('PUT', `${task.appId}/requests/${encodeURIComponent(task.requestId)}/cancel`, signal).catch(
      () => undefined,
    );
  }

  return {
    id: model.id,
    async render(job, context) {
      let task: SavedTask | null = job.providerTaskId ? parseSavedTask(job.providerTaskId) : null;
      try {
        const result = await withDeadline(context.signal, options.timeoutMs, async (signal) => {
          if (!task) {
            const endpoint = job.inputs.image && model.imageEndpoint ? model.imageEndpoint : model.textEndpoint;
            const raw = await call('POST', endpoint, signal, buildInput(model.family, job));
            const submitted = submitSchema.safeParse(raw);
            if (!submitted.success)
              throw new EngineError('fal.ai did not accept the video job.', true, describeBody(raw));
            task = { appId: falAppId(endpoint), requestId: submitted.data.request_id };
            // Saved before waiting: a retried job resumes this request instead of paying for another.
            await context.saveProviderTask(`${task.appId}|${task.requestId}`);
            context.reportProgress(QUEUED_PROGRESS, queuedStage('fal.ai', submitted.data.queue_position));
          }
          await waitUntilDone(task, context, signal);
          return call('GET', `${task.appId}/requests/${encodeURIComponent(task.requestId)}`, signal);
        });
        const parsed = resultSchema.safeParse(result);
        if (!parsed.success) throw new EngineError('fal.ai finished without a video.', false, describeBody(result));
        context.reportProgress(90, 'Downloading video');
        const filePath = path.join(context.workDir, 'fal-output.mp4');
        // fal's results are public CDN links: the key is not sent there.
        await downloadToFile(parsed.data.video.url, {}, filePath, context.signal);
        return { filePath };
      } catch (error) {
        if (task && shouldCancelTask(job, context.signal, error)) await cancel(task);
        throw error;
      }
    },
  };
}

interface SavedTask {
  appId: string;
  requestId: string;
}

function parseSavedTask(saved: string): SavedTask {
  const bar = saved.lastIndexOf('|');
  return { appId: saved.slice(0, bar), requestId: saved.slice(bar + 1) };
}

const seedOf = (job: EngineJob) => (job.settings.seed === undefined ? {} : { seed: job.settings.seed });
const negativeOf = (job: EngineJob) =>
  job.settings.negativePrompt?.trim() ? { negative_prompt: job.settings.negativePrompt } : {};
const imageOf = (job: EngineJob) => (job.inputs.image ? { image_url: job.inputs.image.url } : {});

/** The request body of one fal model family, from the job's values. */
export function buildInput(family: FalFamily, job: EngineJob): Record<string, unknown> {
  const aspect = job.settings.aspectRatio ?? '16:9';
  switch (family) {
    case 'veo':
      return {
        prompt: job.prompt,
        aspect_ratio: aspect === '1:1' ? '16:9' : aspect,
        duration: `${job.duration}s`,
        resolution: job.settings.resolution === '1080p' ? '1080p' : '720p',
        generate_audio: job.hasAudio,
        ...negativeOf(job),
        ...seedOf(job),
        ...imageOf(job),
      };
    case 'kling':
      return {
        prompt: job.prompt,
        duration: String(job.duration),
        aspect_ratio: aspect,
        cfg_scale: 0.5,
        ...negativeOf(job),
        ...imageOf(job),
      };
    case 'wan':
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
