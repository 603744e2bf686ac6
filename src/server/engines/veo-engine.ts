import path from 'node:path';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '../../shared/uploads';
import { EngineError, sleep, type EngineContext, type EngineJob, type VideoEngine } from './engine';
import {
  describeBody,
  downloadToFile,
  estimateProgress,
  isTransientStatus,
  joinUrl,
  readInputBytes,
  requestJson,
  withDeadline,
  type ProviderPolicy,
} from './provider-http';

export interface VeoEngineOptions {
  apiKey: string;
  /** Usually https://generativelanguage.googleapis.com/; a local server in tests. */
  baseUrl: string;
  model: string;
  pollIntervalMs: number;
  /** How long the provider may take, from the start (or resume) to a finished task. */
  timeoutMs: number;
  retryBaseDelayMs?: number;
}

const GOOGLE_HOST = 'generativelanguage.googleapis.com';
// Veo usually takes one to three minutes; progress is half way after this.
const TYPICAL_RENDER_MS = 90_000;
// google.rpc codes (DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, INTERNAL, UNAVAILABLE) worth another try.
const TRANSIENT_RPC_CODES = new Set([4, 8, 13, 14]);

const operationSchema = z.object({
  name: z.string().optional(),
  done: z.boolean().optional(),
  error: z.object({ code: z.number().optional(), message: z.string().optional() }).optional(),
  response: z
    .object({
      generateVideoResponse: z
        .object({
          generatedSamples: z
            .array(z.object({ video: z.object({ uri: z.string().optional() }).optional() }))
            .optional(),
          raiMediaFilteredCount: z.number().optional(),
          raiMediaFilteredReasons: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
});
type Operation = z.infer<typeof operationSchema>;

const errorBodySchema = z.object({
  error: z.object({ code: z.number().optional(), message: z.string().optional(), status: z.string().optional() }),
});

const veoPolicy: ProviderPolicy = {
  providerName: 'Veo',
  shouldRetry: isTransientStatus,
  toError(status, body) {
    const parsed = errorBodySchema.safeParse(body);
    const message = parsed.success ? (parsed.data.error.message ?? '') : '';
    const detail = `HTTP ${status}: ${describeBody(body)}`;
    if (isTransientStatus(status))
      return new EngineError('Veo is busy right now. Please try again later.', true, detail);
    if (status === 401 || status === 403) {
      return new EngineError(
        `Google refused the Veo API key or its access to this model. ${message}`.trim(),
        false,
        detail,
        false,
        'auth',
      );
    }
    if (status === 404)
      return new EngineError(`Veo could not find this model or task. ${message}`.trim(), false, detail);
    return new EngineError(`Veo refused this request. ${message}`.trim(), false, detail);
  },
};

/** Google Veo 3 through the Gemini API's long-running predict operations. */
export function createVeoEngine(options: VeoEngineOptions): VideoEngine {
  const headers = { 'x-goog-api-key': options.apiKey };
  const call = (method: 'GET' | 'POST', apiPath: string, signal: AbortSignal, body?: unknown) =>
    requestJson({
      method,
      url: joinUrl(options.baseUrl, apiPath),
      headers,
      body,
      signal,
      policy: veoPolicy,
      retryBaseDelayMs: options.retryBaseDelayMs,
    });

  async function start(job: EngineJob, context: EngineContext, signal: AbortSignal): Promise<Operation> {
    const body = await buildRequestBody(job);
    const raw = await call(
      'POST',
      `v1beta/models/${encodeURIComponent(options.model)}:predictLongRunning`,
      signal,
      body,
    );
    const operation = parseOperation(raw);
    if (!operation.name) throw new EngineError('Veo did not accept the video job.', true, describeBody(raw));
    // Saved before anything else so a retried job resumes this operation instead of paying again.
    await context.saveProviderTask(operation.name);
    context.reportProgress(10, 'Queued at Google Veo');
    return operation;
  }

  async function waitUntilDone(name: string, context: EngineContext, signal: AbortSignal): Promise<Operation> {
    const startedAt = Date.now();
    for (;;) {
      // The name holds slashes (models/<model>/operations/<id>) and goes into the path as is.
      const operation = parseOperation(await call('GET', `v1beta/${name}`, signal));
      if (operation.done) return operation;
      context.reportProgress(estimateProgress(Date.now() - startedAt, TYPICAL_RENDER_MS), 'Generating with Veo 3');
      await sleep(options.pollIntervalMs, signal);
    }
  }

  return {
    id: 'veo3',
    async render(job, context) {
      const operation = await withDeadline(context.signal, options.timeoutMs, async (signal) => {
        if (job.providerTaskId) {
          context.reportProgress(10, 'Generating with Veo 3');
          return waitUntilDone(job.providerTaskId, context, signal);
        }
        const started = await start(job, context, signal);
        if (started.done) return started;
        await sleep(options.pollIntervalMs, signal);
        return waitUntilDone(started.name ?? '', context, signal);
      });
      const uri = videoUriOf(operation);
      context.reportProgress(90, 'Downloading video');
      const filePath = path.join(context.workDir, 'veo-output.mp4');
      const target = downloadTarget(uri, options.baseUrl);
      // The key only goes to the API's own origin, never to a host a redirect or answer names.
      const downloadHeaders = new URL(target).origin === new URL(options.baseUrl).origin ? headers : {};
      await downloadToFile(target, downloadHeaders, filePath, context.signal);
      return { filePath };
    },
  };
}

async function buildRequestBody(job: EngineJob): Promise<unknown> {
  const image = job.inputs.image;
  const instance: Record<string, unknown> = { prompt: job.prompt };
  if (image) {
    const bytes = await readInputBytes(image, MAX_UPLOAD_BYTES, 'The image is too large for Veo (at most 50 MB).');
    instance.image = { bytesBase64Encoded: bytes.toString('base64'), mimeType: image.contentType };
  }
  const { aspectRatio, resolution, negativePrompt } = job.settings;
  // seed and generateAudio are left out on purpose: the Gemini API refuses them (Veo 3 makes audio anyway).
  return {
    instances: [instance],
    parameters: {
      // Veo has no square format: 1:1 falls back to landscape.
      aspectRatio: aspectRatio === '9:16' ? '9:16' : '16:9',
      durationSeconds: job.duration,
      resolution: resolution === '1080p' ? '1080p' : '720p',
      ...(negativePrompt?.trim() ? { negativePrompt } : {}),
      personGeneration: 'allow_adult',
      sampleCount: 1,
    },
  };
}

function parseOperation(raw: unknown): Operation {
  const parsed = operationSchema.safeParse(raw);
  if (!parsed.success) throw new EngineError('Veo sent an answer we could not read.', true, describeBody(raw));
  return parsed.data;
}

/** The finished video's URI, or the EngineError that explains why there is none. */
function videoUriOf(operation: Operation): string {
  if (operation.error) {
    const { code, message } = operation.error;
    const retryable = code !== undefined && (TRANSIENT_RPC_CODES.has(code) || isTransientStatus(code));
    const text = message ? `Veo could not make this video: ${message}` : 'Veo could not make this video.';
    throw new EngineError(text, retryable, `operation error ${code ?? '?'}`, true);
  }
  const response = operation.response?.generateVideoResponse;
  const uri = response?.generatedSamples?.[0]?.video?.uri;
  if (uri) return uri;
  if (response?.raiMediaFilteredCount || response?.raiMediaFilteredReasons?.length) {
    const reason = response.raiMediaFilteredReasons?.join(' ') || 'it was filtered by the safety checks.';
    throw new EngineError(`Veo blocked this video: ${reason}`, false, undefined, false, 'policy');
  }
  throw new EngineError('Veo finished without a video.', true, describeBody(operation), true);
}

/**
 * Where to download a video URI. Google answers with absolute URIs on its own host; when the
 * configured base URL is another host (a proxy, or a local test server speaking the same API), the
 * URI is moved to that origin, as the official SDK does by downloading through its base URL.
 */
function downloadTarget(uri: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  const target = new URL(uri, base);
  if (base.hostname === GOOGLE_HOST) return target.href;
  return `${base.origin}${target.pathname}${target.search}`;
}
